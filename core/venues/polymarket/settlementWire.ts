import { Decimal, formatDecimal, parseDecimalString, roundMoney } from '../../domain/decimals';
import type { VenueSettlement } from '../venue';
import { recordOf, type WireRecord } from '../wireRecords';

/**
 * How a Polymarket market resolved, and what a wallet was (or will be) paid for it, in our terms.
 * Pure: the reads are settlementReads.ts. Sources (as of 2026-11; the fake follows them,
 * docs/polymarket-fake.md): the CLOB market `GET /markets/{condition_id}` (`closed`,
 * `tokens[{token_id, outcome, price, winner}]`, `is_50_50_outcome`); the Data API's
 * `GET /positions?user=` rows (`asset`, `conditionId`, `size`, `redeemable`, `outcome`; numbers as
 * JSON numbers) and `GET /activity?user=&type=REDEEM` rows (`conditionId`, `size`, `usdcSize`,
 * `timestamp` in unix seconds, `transactionHash`).
 *
 * The CLOB market is the truth of the outcome (the Data API trails the chain by about a minute,
 * and its prices are floats): a winner token makes the result `yes` or `no`; a 50/50 resolution
 * (`is_50_50_outcome`, both tokens at 0.5, no winner) is a scalar at 0.5; anything else is not
 * resolved yet (a proposal or a dispute is never settled on). A position is paid on chain when the
 * wallet redeems it (the owner's act): until then the Data API lists it `redeemable` (losers too,
 * at 0), after it the REDEEM activity row is the record.
 */
export interface PolymarketResolution {
  readonly result: 'yes' | 'no' | 'scalar';
  readonly settlementValue: string;
  /** Each token's outcome and what one share pays. */
  readonly tokens: ReadonlyMap<string, { readonly side: 'yes' | 'no'; readonly pays: Decimal }>;
}

/** A JSON number or decimal string as an exact decimal (a float's shortest form); null otherwise. */
function decimalOf(value: unknown): Decimal | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(String(value)) : null;
  return parseDecimalString(value);
}

const sideOf = (outcome: unknown): 'yes' | 'no' | null => {
  const name = typeof outcome === 'string' ? outcome.trim().toLowerCase() : '';
  return name === 'yes' ? 'yes' : name === 'no' ? 'no' : null;
};

/** The resolution a CLOB market shows, or null when it is not resolved (or is not a Yes/No market). */
export function resolutionOf(raw: unknown): PolymarketResolution | null {
  const market = recordOf(raw);
  if (market === null || market.closed !== true || !Array.isArray(market.tokens)) return null;
  const tokens = market.tokens.map(recordOf).filter((token): token is WireRecord => token !== null);
  const sides = tokens.map((token) => ({ id: token.token_id, side: sideOf(token.outcome), winner: token.winner === true }));
  if (sides.length !== 2 || sides.some((t) => typeof t.id !== 'string' || t.side === null) || sides[0]!.side === sides[1]!.side) return null;
  const split = market.is_50_50_outcome === true;
  const winners = sides.filter((t) => t.winner);
  if (!split && winners.length !== 1) return null;
  const result = split ? 'scalar' : winners[0]!.side!;
  const pays = (side: 'yes' | 'no') => (split ? new Decimal('0.5') : new Decimal(side === result ? 1 : 0));
  return {
    result,
    settlementValue: split ? '0.5' : result === 'yes' ? '1' : '0',
    tokens: new Map(sides.map((t) => [t.id as string, { side: t.side!, pays: pays(t.side!) }])),
  };
}

/**
 * The wallet's redeemable positions (Data API rows with `redeemable: true`) of resolved markets as
 * settlement records, one per condition: the shares of each outcome and what they pay at the
 * resolution, `redemption: redeemable`. The venue gives no time for a resolution: `learntAt` (when
 * we read it) stands for it. Rows of a market the CLOB does not show resolved are left out.
 */
export function redeemableSettlements(rows: readonly unknown[], resolutions: ReadonlyMap<string, PolymarketResolution>, learntAt: Date): VenueSettlement[] {
  const held = new Map<string, { yes: Decimal; no: Decimal; payout: Decimal }>();
  for (const raw of rows) {
    const row = recordOf(raw);
    const conditionId = typeof row?.conditionId === 'string' ? row.conditionId.toLowerCase() : null;
    const resolution = conditionId === null ? undefined : resolutions.get(conditionId);
    const token = typeof row?.asset === 'string' ? resolution?.tokens.get(row.asset) : undefined;
    const size = decimalOf(row?.size);
    if (row?.redeemable !== true || token === undefined || size === null || size.lte(0)) continue;
    const sums = held.get(conditionId!) ?? { yes: new Decimal(0), no: new Decimal(0), payout: new Decimal(0) };
    sums[token.side] = sums[token.side].add(size);
    sums.payout = sums.payout.add(size.mul(token.pays));
    held.set(conditionId!, sums);
  }
  return [...held].map(([conditionId, sums]) => {
    const resolution = resolutions.get(conditionId)!;
    return {
      venueMarketId: conditionId,
      result: resolution.result,
      settlementValue: resolution.settlementValue,
      yesQuantity: formatDecimal(sums.yes),
      noQuantity: formatDecimal(sums.no),
      payout: formatDecimal(roundMoney(sums.payout)),
      fee: '0',
      settledAt: learntAt,
      reference: `${conditionId}:redeemable`,
      redemption: 'redeemable' as const,
    };
  });
}

/**
 * The wallet's redemptions (REDEEM activity rows) of resolved markets since `since`, one record per
 * condition: the dollars paid (`usdcSize`), at the first redemption's time, `redemption: redeemed`.
 * A redemption lists the shares burnt, not each outcome's: the quantities are null.
 */
export function redeemedSettlements(rows: readonly unknown[], resolutions: ReadonlyMap<string, PolymarketResolution>, since: Date): VenueSettlement[] {
  const redeemed = new Map<string, { payout: Decimal; atMs: number; transaction: string }>();
  for (const raw of rows) {
    const row = recordOf(raw);
    const conditionId = typeof row?.conditionId === 'string' ? row.conditionId.toLowerCase() : null;
    const paid = decimalOf(row?.usdcSize);
    const atMs = typeof row?.timestamp === 'number' && Number.isFinite(row.timestamp) ? row.timestamp * 1000 : null;
    if (row?.type !== 'REDEEM' || conditionId === null || !resolutions.has(conditionId) || paid === null || atMs === null || atMs < since.getTime()) continue;
    const sums = redeemed.get(conditionId);
    const transaction = typeof row.transactionHash === 'string' ? row.transactionHash : '';
    if (sums === undefined) redeemed.set(conditionId, { payout: paid, atMs, transaction });
    else redeemed.set(conditionId, { payout: sums.payout.add(paid), atMs: Math.min(sums.atMs, atMs), transaction: atMs < sums.atMs ? transaction : sums.transaction });
  }
  return [...redeemed].map(([conditionId, sums]) => {
    const resolution = resolutions.get(conditionId)!;
    return {
      venueMarketId: conditionId,
      result: resolution.result,
      settlementValue: resolution.settlementValue,
      yesQuantity: null,
      noQuantity: null,
      payout: formatDecimal(roundMoney(sums.payout)),
      fee: '0',
      settledAt: new Date(sums.atMs),
      reference: `${conditionId}:redeemed:${sums.transaction}`,
      redemption: 'redeemed' as const,
    };
  });
}
