import { Decimal, formatDecimal, parseDecimalString } from '../../domain/decimals';
import type { VenueSettlement } from '../venue';
import { recordOf } from '../wireRecords';

/**
 * One Kalshi settlement record in our terms (`GET /portfolio/settlements`, Trade API v2; the
 * `Settlement` model of kalshi-typescript 3.11 and docs.kalshi.com python-sdk "Settlement", as of
 * 2026-11): `ticker`, `market_result` (yes | no | scalar | void: void returns the positions at
 * cost), `yes_count_fp` / `no_count_fp` (contracts, 2 decimals), `revenue` (integer cents: each
 * winning contract pays 100), `value` (integer cents a YES contract paid; absent when void),
 * `settled_time` (ISO), `fee_cost` (dollars). Pure; null for a record that cannot be read (left out,
 * as the sweep would rather wait than book a guess).
 *
 * What we take: the result and what a YES contract pays (yes 1, no 0, a scalar its `value` / 100);
 * the payout is `revenue` / 100. `fee_cost` is not a settlement fee of ours: Kalshi describes it as
 * the fees paid, which our books already charged with each fill, and settlement fees are zero on
 * yes/no results (docs "Market Settlement"); so our settlement's fee stays 0 and the record's
 * `fee_cost` is not compared. The reference is `<ticker>@<settled_time>`: Kalshi's record has no id.
 */
export function settlementFromRest(raw: unknown): VenueSettlement | null {
  const record = recordOf(raw);
  if (record === null) return null;
  const { ticker, market_result: result, settled_time: settledTime } = record;
  const yes = parseDecimalString(record.yes_count_fp);
  const no = parseDecimalString(record.no_count_fp);
  const revenueCents = typeof record.revenue === 'number' && Number.isInteger(record.revenue) ? record.revenue : null;
  const valueCents = typeof record.value === 'number' && Number.isFinite(record.value) ? record.value : null;
  const settledAt = typeof settledTime === 'string' ? new Date(settledTime) : null;
  if (typeof ticker !== 'string' || yes === null || no === null || revenueCents === null || settledAt === null || Number.isNaN(settledAt.getTime())) return null;
  let settlementValue: string | null;
  switch (result) {
    case 'yes':
      settlementValue = '1';
      break;
    case 'no':
      settlementValue = '0';
      break;
    case 'scalar':
      if (valueCents === null || valueCents < 0 || valueCents > 100) return null;
      settlementValue = formatDecimal(new Decimal(valueCents).div(100));
      break;
    case 'void':
      settlementValue = null;
      break;
    default:
      return null;
  }
  return {
    venueMarketId: ticker,
    result,
    settlementValue,
    yesQuantity: formatDecimal(yes),
    noQuantity: formatDecimal(no),
    payout: formatDecimal(new Decimal(revenueCents).div(100)),
    fee: '0',
    settledAt,
    reference: `${ticker}@${settledTime as string}`,
  };
}
