import { DomainError } from '../../domain/errors';
import type { VenueSettlement } from '../venue';
import type { PolymarketPublicReads } from './publicReads';
import type { PolymarketSession } from './session';
import { redeemableSettlements, redeemedSettlements, resolutionOf, type PolymarketResolution } from './settlementWire';

/** The Data API's largest page (`limit` 0..500) and its last offset (10000). */
const PAGE = 500;
const MAX_OFFSET = 10_000;

/**
 * One wallet's settlements at Polymarket (settlementWire.ts says what each field means): its
 * redeemable positions and its redemptions from the public Data API (production
 * https://data-api.polymarket.com, `POLYMARKET_DATA_API_URL`), each market's resolution from the
 * CLOB market (`GET /markets/{condition_id}`, public, through the account's session). Every read
 * times out; a failed one fails the whole listing (`venue_unavailable`): the sweep asks again
 * rather than book half an answer.
 */
export class PolymarketSettlementReads {
  constructor(
    private readonly session: PolymarketSession,
    private readonly dataApi: PolymarketPublicReads,
    /** The wallet holding the tokens: the credential's funder (its proxy or Safe), else the signer. */
    private readonly wallet: string,
  ) {}

  async settlementsSince(since: Date): Promise<VenueSettlement[]> {
    const [positions, activity] = await Promise.all([
      this.pages('/positions', { user: this.wallet, redeemable: 'true', sizeThreshold: 0 }),
      this.pages('/activity', { user: this.wallet, type: 'REDEEM' }),
    ]);
    const conditions = new Set<string>();
    for (const row of [...positions, ...activity]) {
      const id = (row as { conditionId?: unknown } | null)?.conditionId;
      if (typeof id === 'string') conditions.add(id.toLowerCase());
    }
    const resolutions = new Map<string, PolymarketResolution>();
    for (const conditionId of conditions) {
      const resolution = await this.resolution(conditionId);
      if (resolution !== null) resolutions.set(conditionId, resolution);
    }
    const redeemed = redeemedSettlements(activity, resolutions, since);
    const done = new Set(redeemed.map((record) => record.venueMarketId));
    return [...redeemed, ...redeemableSettlements(positions, resolutions, new Date()).filter((record) => !done.has(record.venueMarketId))];
  }

  /** The CLOB market's resolution; null when it is not resolved (or the CLOB does not know it). */
  private async resolution(conditionId: string): Promise<PolymarketResolution | null> {
    const outcome = await this.session.request('GET', `/markets/${conditionId}`, { auth: 'public' });
    if (outcome.kind === 'refused' && outcome.status === 404) return null;
    if (outcome.kind !== 'answered') throw new DomainError('venue_unavailable', `The Polymarket CLOB could not be asked about market ${conditionId} now.`);
    return resolutionOf(outcome.body);
  }

  /** Every row of an offset-paged Data API listing (a bare JSON array). */
  private async pages(path: string, query: Record<string, string | number>): Promise<unknown[]> {
    const rows: unknown[] = [];
    for (let offset = 0; offset <= MAX_OFFSET; offset += PAGE) {
      const answer = await this.dataApi.get(path, { ...query, limit: PAGE, offset });
      if (answer.status !== 200 || !Array.isArray(answer.body)) throw new DomainError('venue_unavailable', `The Polymarket Data API answered GET ${path} with ${answer.status}.`);
      rows.push(...answer.body);
      if (answer.body.length < PAGE) return rows;
    }
    return rows;
  }
}
