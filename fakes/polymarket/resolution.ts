/**
 * How a market (a condition) of the Polymarket fake ends and resolves: open (accepting orders) ->
 * closed (trading stopped) -> proposed (an outcome proposed to UMA) -> optionally disputed (and
 * proposed again) -> resolved (the winner's token pays 1, the loser's 0; a 50/50 split pays 0.5
 * each). Not to be confused with settlement.ts, which is about one trade settling on chain.
 *
 * What each step shows, and where the shapes come from:
 * - CLOB `GET /markets/{condition_id}` (the official client's `getMarket`, src/endpoints.ts
 *   GET_MARKET "/markets/", github.com/Polymarket/clob-client-v2 at f3e1a05; the object is the
 *   official Rust client's `MarketResponse`, github.com/Polymarket/rs-clob-client at d84e8e1,
 *   src/clob/types/response.rs, and NautilusTrader's captured closed markets, crates/adapters/
 *   polymarket/test_data/clob_market_closed_binary_accepting_false.json and _true.json, 2026):
 *   keys in alphabetical order as the venue sends them; `minimum_order_size`, `minimum_tick_size`,
 *   the fees and each token's `price` are JSON numbers; `tokens[]` is `{outcome, price, token_id,
 *   winner}`. Once closed: `closed: true`, `accepting_orders: false`, `enable_order_book: false`
 *   (as in both captures), `active` stays true. Once resolved: the winner's `winner: true` and
 *   `price: 1`, the loser's `winner: false` and `price: 0` (the captures). A 50/50 split: both
 *   `winner: false`, both `price: 0.5`, and `is_50_50_outcome: true` (how third-party readers of
 *   the CLOB tell a split; the venue does not document the flag).
 * - Gamma (gamma.ts): `closed`, `acceptingOrders`, `closedTime`, `umaResolutionStatus`,
 *   `umaResolutionStatuses`, `outcomePrices`, `resolvedBy`, `umaEndDate`, driven here when the
 *   fake is linked to a Gamma fake that lists the condition.
 * - Market channel (marketChannel.ts): a `market_resolved` notice when the market resolves.
 * - Orders: at close, exchange.ts `closeCondition` cancels every resting order (user channel
 *   CANCELLATION, status INVALID; REST status CANCELED_MARKET_RESOLVED), removes the books and
 *   refuses new orders (400 `the orderbook {condition_id} does not exist`).
 *
 * Choices (docs/polymarket-fake.md): proposing and disputing do not close the market (UMA takes
 * proposals on open markets too; Gamma readers see `closed: false` with `umaResolutionStatus:
 * "disputed"`), resolving closes it first; a proposal may follow a dispute; Gamma's `outcomePrices`
 * show a proposal at once and stay at the proposed prices during a dispute; before resolution a
 * token's CLOB `price` is its last trade price (or the seed's mid, or 0.5).
 */
import { Decimal } from '../../core/domain/decimals';
import type { OrderRecord, PolymarketExchange } from './exchange';
import type { GammaFake, GammaResolution } from './gamma';
import type { GammaMarketRecord } from './gammaRecords';
import type { TokenSeed } from './markets';
import type { MarketChannel, MarketResolvedFrame, NoticeDelivery } from './marketChannel';

export type ResolutionOutcome = 'Yes' | 'No' | 'split';
export type UmaStatus = 'proposed' | 'disputed' | 'resolved';

/** What the CLOB and Data API say of a market beside its tokens (Gamma's, when linked, win). */
export interface MarketDetails {
  readonly question?: string;
  readonly slug?: string;
  readonly description?: string;
  /** ISO 8601, e.g. "2026-12-31T12:00:00Z". */
  readonly endDate?: string;
  readonly questionId?: string;
  readonly icon?: string;
  readonly eventSlug?: string;
  readonly tags?: readonly string[];
}

interface ConditionState {
  closedAtMs: number | null;
  uma: UmaStatus | null;
  proposal: ResolutionOutcome | null;
  /** The UMA statuses so far (Gamma's `umaResolutionStatuses`). */
  readonly history: UmaStatus[];
  outcome: ResolutionOutcome | null;
  resolvedAtMs: number | null;
}

export type ResolutionResult = { readonly ok: true; readonly canceled: readonly OrderRecord[]; readonly hearing?: number } | { readonly ok: false; readonly status: number; readonly error: string };

const DEFAULT_END_DATE = '2026-12-31T12:00:00Z';
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export class MarketResolutions {
  private readonly states = new Map<string, ConditionState>();
  private readonly details = new Map<string, MarketDetails>();
  private readonly marketIds = new Map<string, string>();
  private nextMarketId = 900_000;
  private gamma: GammaFake | null = null;
  /** When the fake listed its markets: the CLOB's `accepting_order_timestamp`. */
  private readonly listedAtMs: number;

  constructor(
    private readonly exchange: PolymarketExchange,
    private readonly clock: () => number,
    private readonly channel: MarketChannel,
  ) {
    this.listedAtMs = clock();
  }

  /** Gamma's listing follows every step of the markets it lists (null: none). */
  linkGamma(gamma: GammaFake | null): void {
    this.gamma = gamma;
  }

  /** Names a market (question, slug, end date...) for the CLOB market and the Data API. */
  describe(conditionId: string, details: MarketDetails): void {
    this.details.set(conditionId.toLowerCase(), { ...this.details.get(conditionId.toLowerCase()), ...details });
  }

  knows(conditionId: string): boolean {
    return this.exchange.tokensOf(conditionId).length > 0;
  }

  /** Where the market stands. */
  stateOf(conditionId: string): Readonly<ConditionState> {
    return this.state(conditionId);
  }

  /** Trading stops: resting orders cancelled, books gone, orders refused; Gamma closed. */
  close(conditionId: string): ResolutionResult {
    if (!this.knows(conditionId)) return unknown(conditionId);
    const state = this.state(conditionId);
    if (state.closedAtMs === null) state.closedAtMs = this.clock();
    const canceled = this.exchange.closeCondition(conditionId);
    if (this.gammaMarket(conditionId) !== null) this.gamma!.closeMarket(conditionId, state.closedAtMs);
    return { ok: true, canceled };
  }

  /** An outcome is proposed to UMA (on a market not resolved, with no proposal pending). */
  propose(conditionId: string, outcome: ResolutionOutcome): ResolutionResult {
    if (!this.knows(conditionId)) return unknown(conditionId);
    const state = this.state(conditionId);
    if (state.uma === 'resolved') return { ok: false, status: 409, error: `the market ${conditionId} is resolved` };
    if (state.uma === 'proposed') return { ok: false, status: 409, error: `an outcome is already proposed for ${conditionId}; dispute it first` };
    state.uma = 'proposed';
    state.proposal = outcome;
    state.history.push('proposed');
    if (this.gammaMarket(conditionId) !== null) this.gamma!.proposeResolution(conditionId, this.gammaOutcome(conditionId, outcome));
    return { ok: true, canceled: [] };
  }

  /** The pending proposal is disputed. */
  dispute(conditionId: string): ResolutionResult {
    if (!this.knows(conditionId)) return unknown(conditionId);
    const state = this.state(conditionId);
    if (state.uma !== 'proposed') return { ok: false, status: 409, error: `no proposal of ${conditionId} to dispute (status ${state.uma ?? 'none'})` };
    state.uma = 'disputed';
    state.history.push('disputed');
    if (this.gammaMarket(conditionId) !== null) this.gamma!.disputeResolution(conditionId);
    return { ok: true, canceled: [] };
  }

  /**
   * The market resolves (closing it first when open): CLOB winner and prices, Gamma's resolution,
   * and the market channel's `market_resolved`, delivered as `delivery` says. The outcome may
   * differ from a proposal (after a dispute the vote decides).
   */
  resolve(conditionId: string, outcome: ResolutionOutcome, delivery: NoticeDelivery = { kind: 'sent' }): ResolutionResult {
    if (!this.knows(conditionId)) return unknown(conditionId);
    const state = this.state(conditionId);
    if (state.uma === 'resolved') return { ok: false, status: 409, error: `the market ${conditionId} is already resolved` };
    const closed = this.close(conditionId);
    const canceled = closed.ok ? closed.canceled : [];
    const now = this.clock();
    state.uma = 'resolved';
    state.outcome = outcome;
    state.resolvedAtMs = now;
    if (state.history.length === 0) state.history.push('proposed');
    if (this.gammaMarket(conditionId) !== null) this.gamma!.resolveMarket(conditionId, this.gammaOutcome(conditionId, outcome), now);
    const hearing = this.channel.announce(this.resolvedFrame(conditionId), delivery);
    return { ok: true, canceled, hearing };
  }

  /** What one share of the token pays now that its market resolved (1, 0 or 0.5); null before. */
  payoutOf(token: TokenSeed): Decimal | null {
    const state = this.states.get(token.conditionId);
    if (state?.outcome == null) return null;
    if (state.outcome === 'split') return new Decimal('0.5');
    return new Decimal(this.winner(token.conditionId, state.outcome)?.tokenId === token.tokenId ? 1 : 0);
  }

  /** A token's price: its payout once resolved, else its last trade, else its seed's mid, else 0.5. */
  priceOf(token: TokenSeed): Decimal {
    return this.payoutOf(token) ?? new Decimal(this.exchange.lastTradePriceOf(token.tokenId) ?? token.mid ?? '0.5');
  }

  /** The market's title, slug, dates, as the CLOB and Data API name them. */
  infoOf(conditionId: string): Required<Omit<MarketDetails, 'tags'>> & { readonly tags: readonly string[]; readonly marketId: string } {
    const own = this.details.get(conditionId.toLowerCase()) ?? {};
    const gamma = this.gammaMarket(conditionId);
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
    const question = text(gamma?.question) ?? own.question ?? `Polymarket fake market ${conditionId.slice(0, 10)}`;
    const icon = text(gamma?.icon) ?? own.icon ?? '';
    return {
      question,
      slug: text(gamma?.slug) ?? own.slug ?? slugOf(question),
      description: text(gamma?.description) ?? own.description ?? '',
      endDate: text(gamma?.endDate) ?? own.endDate ?? DEFAULT_END_DATE,
      questionId: text(gamma?.questionID) ?? own.questionId ?? `0x${'0'.repeat(63)}1`,
      icon,
      eventSlug: own.eventSlug ?? text(gamma?.slug) ?? own.slug ?? slugOf(question),
      tags: own.tags ?? [],
      marketId: text(gamma?.id) ?? this.marketIdOf(conditionId),
    };
  }

  /** `GET /markets/{condition_id}`: the CLOB's market object (keys in the venue's alphabetical order). */
  clobMarket(conditionId: string): Record<string, unknown> {
    const tokens = this.exchange.tokensOf(conditionId);
    const first = tokens[0]!;
    const state = this.state(conditionId);
    const info = this.infoOf(conditionId);
    const closed = this.exchange.isClosed(conditionId);
    const winner = state.outcome === null || state.outcome === 'split' ? undefined : this.winner(conditionId, state.outcome);
    return {
      accepting_order_timestamp: isoSeconds(this.listedAtMs),
      accepting_orders: !closed,
      active: true,
      archived: false,
      closed,
      condition_id: conditionId,
      description: info.description,
      enable_order_book: !closed,
      end_date_iso: Number.isNaN(Date.parse(info.endDate)) ? info.endDate : isoSeconds(Date.parse(info.endDate)),
      fpmm: '',
      game_start_time: null,
      icon: info.icon,
      image: info.icon,
      is_50_50_outcome: state.outcome === 'split',
      maker_base_fee: 0,
      market_slug: info.slug,
      minimum_order_size: Number(first.minOrderSize),
      minimum_tick_size: Number(first.tickSize),
      neg_risk: first.negRisk,
      neg_risk_market_id: '',
      neg_risk_request_id: '',
      notifications_enabled: true,
      question: info.question,
      question_id: info.questionId,
      rewards: { max_spread: 0, min_size: 0, rates: null },
      seconds_delay: 0,
      tags: [...info.tags],
      taker_base_fee: 0,
      tokens: tokens.map((token) => ({ outcome: token.outcome, price: Number(this.priceOf(token).toString()), token_id: token.tokenId, winner: winner?.tokenId === token.tokenId })),
    };
  }

  /** The linked Gamma's market of the condition, or null. */
  gammaMarket(conditionId: string): GammaMarketRecord | null {
    return this.gamma?.market(conditionId) ?? null;
  }

  /** The `market_resolved` message of a resolved market. */
  private resolvedFrame(conditionId: string): MarketResolvedFrame {
    const tokens = this.exchange.tokensOf(conditionId);
    const state = this.state(conditionId);
    const info = this.infoOf(conditionId);
    const winner = state.outcome === null || state.outcome === 'split' ? undefined : this.winner(conditionId, state.outcome);
    return {
      event_type: 'market_resolved',
      id: info.marketId,
      question: info.question,
      market: conditionId,
      slug: info.slug,
      description: info.description,
      assets_ids: tokens.map((t) => t.tokenId),
      outcomes: tokens.map((t) => t.outcome),
      winning_asset_id: winner?.tokenId ?? '',
      winning_outcome: winner?.outcome ?? '',
      timestamp: String(state.resolvedAtMs ?? this.clock()),
      tags: [...info.tags],
    };
  }

  /** The token an outcome names: by its outcome name, else Yes = the first token, No = the second. */
  private winner(conditionId: string, outcome: 'Yes' | 'No'): TokenSeed | undefined {
    const tokens = this.exchange.tokensOf(conditionId);
    return tokens.find((t) => t.outcome === outcome) ?? tokens[outcome === 'Yes' ? 0 : 1];
  }

  /** The outcome in Gamma's order (its `clobTokenIds`), which need not be the CLOB's. */
  private gammaOutcome(conditionId: string, outcome: ResolutionOutcome): GammaResolution {
    if (outcome === 'split') return 'split';
    const gamma = this.gammaMarket(conditionId);
    const winner = this.winner(conditionId, outcome);
    let ids: unknown = [];
    try {
      ids = JSON.parse(String(gamma?.clobTokenIds ?? '[]'));
    } catch {
      ids = [];
    }
    const index = Array.isArray(ids) && winner !== undefined ? ids.indexOf(winner.tokenId) : -1;
    return index === -1 ? outcome : index === 0 ? 'Yes' : 'No';
  }

  private marketIdOf(conditionId: string): string {
    let id = this.marketIds.get(conditionId);
    if (id === undefined) {
      id = String((this.nextMarketId += 1));
      this.marketIds.set(conditionId, id);
    }
    return id;
  }

  private state(conditionId: string): ConditionState {
    let state = this.states.get(conditionId);
    if (state === undefined) {
      state = { closedAtMs: null, uma: null, proposal: null, history: [], outcome: null, resolvedAtMs: null };
      this.states.set(conditionId, state);
    }
    return state;
  }
}

function unknown(conditionId: string): ResolutionResult {
  return { ok: false, status: 404, error: `the fake trades no market ${conditionId}` };
}
