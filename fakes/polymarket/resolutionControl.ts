/**
 * The Polymarket fake's control routes for markets ending and resolving (resolution.ts) and for
 * redemptions (dataApi.ts), under `/_fake/` beside controlApi.ts's. Not Polymarket's API; JSON in
 * and out. Conditions are named by their condition id (0x + 64 hex).
 *
 *   GET  /_fake/markets/{condition_id}            {clob, gamma}: the CLOB market object
 *                                                 (`GET /markets/{condition_id}`) and the linked
 *                                                 Gamma's market (null when none lists it)
 *   POST /_fake/markets/{condition_id}/close      trading stops: resting orders cancelled (user
 *                                                 channel CANCELLATION), books gone, orders
 *                                                 refused; {clob, gamma, canceled_orders: [ids]}
 *   POST /_fake/markets/{condition_id}/propose    {outcome: "Yes"|"No"|"split"}: Gamma
 *                                                 umaResolutionStatus "proposed", outcomePrices
 *                                                 the proposed ones; {clob, gamma}
 *   POST /_fake/markets/{condition_id}/dispute    the pending proposal is disputed; {clob, gamma}
 *   POST /_fake/markets/{condition_id}/resolve    {outcome: "Yes"|"No"|"split", notice?: "sent"|
 *                                                 "lost"|"repeated"|"late", repeat? (>= 2, default
 *                                                 2), late_ms? (default 1000)}: closes first when
 *                                                 open, then resolves (it may differ from the
 *                                                 proposal); {clob, gamma, canceled_orders,
 *                                                 notice: {delivery, sockets}} (sockets: how many
 *                                                 market-channel sockets heard it at once)
 *   POST /_fake/wallets/{address}/redeem          {condition_id}: the wallet owner redeems on
 *                                                 chain: {wallet, condition_id, transaction_hash,
 *                                                 redeemed: [{asset, outcome, size, price,
 *                                                 payout}], payout, pusd_balance}; 409 "result for
 *                                                 condition not received yet" before resolution
 *   POST /_fake/data-api                          {lag_ms}: how long the Data API index trails a
 *                                                 resolution or a redemption
 *
 * Refusals: 400 for a malformed body or id, 404 for a condition the fake does not trade, 409 for
 * a step out of order (a proposal on a resolved market or while one is pending, a dispute without
 * a pending proposal, a second resolution).
 */
import { z } from 'zod';
import type { DataApiFake } from './dataApi';
import type { ClobAnswer } from './errors';
import type { NoticeDelivery } from './marketChannel';
import type { MarketResolutions, ResolutionResult } from './resolution';

export interface ResolutionControls {
  readonly resolutions: MarketResolutions;
  readonly dataApi: DataApiFake;
}

const answer = (status: number, body: unknown): ClobAnswer => ({ status, body });
const bad = (message: string): ClobAnswer => answer(400, { error: message });
const outcome = z.enum(['Yes', 'No', 'split']);
const resolveBody = z.object({
  outcome,
  notice: z.enum(['sent', 'lost', 'repeated', 'late']).default('sent'),
  repeat: z.number().int().min(2).max(20).default(2),
  late_ms: z.number().int().min(0).max(600_000).default(1000),
});

/** The answer to a resolution control route, or undefined when the route is not one of these. */
export function handleResolutionControl(fake: ResolutionControls, method: string, path: string, body: Record<string, unknown>): ClobAnswer | undefined {
  const market = /^\/_fake\/markets\/([^/]+)(?:\/(close|propose|dispute|resolve))?$/.exec(path);
  if (market) {
    const conditionId = decodeURIComponent(market[1]!).toLowerCase();
    const action = market[2];
    if (!/^0x[0-9a-f]{64}$/.test(conditionId)) return bad('the condition id is 0x and 64 hex characters');
    const { resolutions } = fake;
    if (method === 'GET' && action === undefined) {
      if (!resolutions.knows(conditionId)) return answer(404, { error: `the fake trades no market ${conditionId}` });
      return answer(200, view(fake, conditionId));
    }
    if (method !== 'POST' || action === undefined) return undefined;
    if (action === 'close') return result(fake, conditionId, resolutions.close(conditionId), { canceled: true });
    if (action === 'dispute') return result(fake, conditionId, resolutions.dispute(conditionId));
    if (action === 'propose') {
      const parsed = outcome.safeParse(body.outcome);
      if (!parsed.success) return bad('outcome must be "Yes", "No" or "split"');
      return result(fake, conditionId, resolutions.propose(conditionId, parsed.data));
    }
    const parsed = resolveBody.safeParse(body);
    if (!parsed.success) return bad('resolve takes outcome ("Yes", "No" or "split"), notice ("sent", "lost", "repeated", "late"), repeat (2-20), late_ms');
    const b = parsed.data;
    const delivery: NoticeDelivery =
      b.notice === 'repeated' ? { kind: 'repeated', times: b.repeat } : b.notice === 'late' ? { kind: 'late', ms: b.late_ms } : { kind: b.notice };
    return result(fake, conditionId, resolutions.resolve(conditionId, b.outcome, delivery), { canceled: true, delivery });
  }
  const redeem = /^\/_fake\/wallets\/([^/]+)\/redeem$/.exec(path);
  if (method === 'POST' && redeem) {
    const conditionId = typeof body.condition_id === 'string' ? body.condition_id.toLowerCase() : '';
    if (!/^0x[0-9a-f]{64}$/.test(conditionId)) return bad('redeem needs condition_id: 0x and 64 hex characters');
    return fake.dataApi.redeem(decodeURIComponent(redeem[1]!), conditionId);
  }
  if (method === 'POST' && path === '/_fake/data-api') {
    const lag = z.number().int().min(0).max(3_600_000).safeParse(body.lag_ms);
    if (!lag.success) return bad('lag_ms must be an integer of milliseconds, 0 to 3600000');
    fake.dataApi.setLag(lag.data);
    return answer(200, { lag_ms: lag.data });
  }
  return undefined;
}

function view(fake: ResolutionControls, conditionId: string) {
  return { clob: fake.resolutions.clobMarket(conditionId), gamma: fake.resolutions.gammaMarket(conditionId) };
}

function result(fake: ResolutionControls, conditionId: string, outcome: ResolutionResult, extra: { canceled?: boolean; delivery?: NoticeDelivery } = {}): ClobAnswer {
  if (!outcome.ok) return answer(outcome.status, { error: outcome.error });
  return answer(200, {
    ...view(fake, conditionId),
    ...(extra.canceled === true ? { canceled_orders: outcome.canceled.map((o) => o.id) } : {}),
    ...(extra.delivery === undefined ? {} : { notice: { delivery: extra.delivery.kind, sockets: outcome.hearing ?? 0 } }),
  });
}
