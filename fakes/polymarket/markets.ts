/**
 * The tokens the Polymarket fake trades. On CLOB V2 every outcome token (a decimal uint256 id) has
 * its own book with the market's tick size, minimum order size and neg-risk flag; the fields are
 * those of the client's `OrderBookSummary` (src/types/clob.ts: `market` is the condition id,
 * `asset_id` the token id, `tick_size`, `min_order_size`, `neg_risk`).
 *
 * The fake keeps one book per token and does not match a token against its complement (a YES bid
 * against a NO bid, which the operator settles by minting): a cross-token match is not modelled.
 */
import type { TickSize } from '@polymarket/clob-client-v2';

/**
 * The tick sizes CLOB V2 knows (the client's src/types/clob.ts `TickSize`). The fake keeps its own
 * list, from the venue's definition, rather than our adapter's: a mistake on our side is not mirrored.
 */
const TICK_SIZES: readonly TickSize[] = ['0.1', '0.01', '0.005', '0.0025', '0.001', '0.0001'];

export interface TokenSeed {
  readonly tokenId: string;
  /** The market's condition id (bytes32 hex). */
  readonly conditionId: string;
  readonly outcome: string;
  readonly tickSize: TickSize;
  /** Shares, decimal string, e.g. "5". */
  readonly minOrderSize: string;
  readonly negRisk: boolean;
  /**
   * Not a venue field: the price the fake's market maker quotes this token around when books are
   * seeded (marketMaker.ts; 0.5 when absent). A binary market's Yes and No mids add up to 1.
   */
  readonly mid?: string;
}

export function isTickSize(value: unknown): value is TickSize {
  return typeof value === 'string' && (TICK_SIZES as readonly string[]).includes(value);
}

const FED_CONDITION = `0x${'5e'.repeat(32)}`;
const ELECTION_CONDITION = `0x${'a7'.repeat(32)}`;

/**
 * Two markets: a plain binary one on a 0.01 tick, and a neg-risk one on a 0.001 tick (its orders
 * are signed for the neg-risk exchange). Both with a 5-share minimum. The mids are where seeded
 * books are quoted (Fed Yes 0.45, No 0.55; election Yes 0.62).
 */
export function defaultTokens(): TokenSeed[] {
  return [
    { tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563', conditionId: FED_CONDITION, outcome: 'Yes', tickSize: '0.01', minOrderSize: '5', negRisk: false, mid: '0.45' },
    { tokenId: '52114319501245915516055106046884209969926127482827954674443846427813813222426', conditionId: FED_CONDITION, outcome: 'No', tickSize: '0.01', minOrderSize: '5', negRisk: false, mid: '0.55' },
    { tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455', conditionId: ELECTION_CONDITION, outcome: 'Yes', tickSize: '0.001', minOrderSize: '5', negRisk: true, mid: '0.62' },
  ];
}
