/**
 * The Gamma fake (fakes/polymarket/gamma.ts) over loopback, as a client sees it: the keyset
 * listing's paging, filters and refusals, and the market shape with its JSON-encoded string fields.
 */
import { GAMMA_MAX_PAGE, GAMMA_RESOLVED_BY, GammaFake, gammaMarket } from '../../fakes/polymarket/gamma';

const condition = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
let gamma: GammaFake;

beforeAll(async () => {
  const markets = Array.from({ length: 105 }, (_, i) => gammaMarket({ conditionId: condition(i + 1), question: `Question ${i + 1}?`, yesTokenId: `${i + 1}1`, noTokenId: `${i + 1}2` }));
  gamma = await GammaFake.start({ markets });
  gamma.closeMarket(condition(2));
  gamma.resolveMarket(condition(3), 'Yes');
});
afterAll(async () => gamma?.close());

const get = async (query: string) => {
  const response = await fetch(`${gamma.baseUrl}/markets/keyset?${query}`);
  return { status: response.status, body: (await response.json()) as any };
};

it('pages open markets by cursor, at most 100 a page, next_cursor absent on the last page; closed=false when not sent', async () => {
  const first = await get('limit=500');
  expect(first.status).toBe(200);
  expect(first.body.markets).toHaveLength(GAMMA_MAX_PAGE);
  expect(first.body.markets.map((m: { conditionId: string }) => m.conditionId)).not.toContain(condition(2));
  const second = await get(`limit=500&after_cursor=${encodeURIComponent(first.body.next_cursor)}`);
  expect(second.body.markets).toHaveLength(103 - GAMMA_MAX_PAGE);
  expect(second.body).not.toHaveProperty('next_cursor');
});

it('serves markets in Gamma’s shape: JSON-encoded outcomes, prices and token ids; numbers for tick and size; resolution on closed markets', async () => {
  const { body } = await get(`closed=true&condition_ids=${condition(2)},${condition(3)}`);
  const [closed, resolved] = body.markets;
  expect(closed).toMatchObject({ conditionId: condition(2), closed: true, acceptingOrders: false, outcomes: '["Yes","No"]', clobTokenIds: '["21","22"]', orderPriceMinTickSize: 0.01, orderMinSize: 5 });
  expect(closed).not.toHaveProperty('umaResolutionStatus');
  expect(resolved).toMatchObject({ conditionId: condition(3), umaResolutionStatus: 'resolved', outcomePrices: '["1","0"]' });
  expect(JSON.parse(resolved.outcomes)).toEqual(['Yes', 'No']);
});

it('refuses offset (keyset only), an unknown cursor and a bad filter with 400', async () => {
  expect((await get('offset=100')).status).toBe(400);
  expect((await get('after_cursor=nonsense')).status).toBe(400);
  expect((await get('closed=maybe')).status).toBe(400);
});

it('shows a resolution step by step: proposed, disputed, proposed again, resolved (or split), with the statuses it went through', async () => {
  const market = condition(4);
  const read = async () => (await get(`closed=true&condition_ids=${market}`)).body.markets[0] ?? (await get(`condition_ids=${market}`)).body.markets[0];
  gamma.proposeResolution(market, 'No');
  expect(await read()).toMatchObject({ closed: false, umaResolutionStatus: 'proposed', umaResolutionStatuses: '["proposed"]', outcomePrices: '["0","1"]' });
  gamma.disputeResolution(market);
  gamma.proposeResolution(market, 'Yes');
  expect(await read()).toMatchObject({ umaResolutionStatus: 'proposed', umaResolutionStatuses: '["proposed","disputed","proposed"]', outcomePrices: '["1","0"]' });
  gamma.resolveMarket(market, 'split', Date.UTC(2026, 10, 20, 12, 0, 0));
  expect(await read()).toMatchObject({
    closed: true,
    acceptingOrders: false,
    closedTime: '2026-11-20 12:00:00+00',
    umaResolutionStatus: 'resolved',
    umaResolutionStatuses: '["proposed","disputed","proposed"]',
    outcomePrices: '["0.5","0.5"]',
    resolvedBy: GAMMA_RESOLVED_BY,
    umaEndDate: '2026-11-20T12:00:00Z',
  });
});
