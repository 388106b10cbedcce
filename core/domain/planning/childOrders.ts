/**
 * Child orders as the venues take them: a limit price in own terms and a quantity on the venue's
 * step, with what each is expected to trade.
 *
 * A taking child (sweep, twap) is a limit IOC priced at the worst level it is planned to take: on an
 * unchanged book the engine then fills exactly the planned levels (best first, every trade at the
 * resting price) and cancels nothing, and if the book moved it never pays worse than planned.
 */
import { computeFee } from '../venueRules';
import type { NormalizedOrder } from './parentOrder';
import { contractsOf, priceDollars, type LadderFill } from './ladderFill';
import { Decimal, formatDecimal } from '../decimals';
import type { PlannedChildOrder, VenueMarketSnapshot } from './types';
import type { JoinableTouch } from './venueLadder';

export function takingChild(
  fill: LadderFill,
  order: Pick<NormalizedOrder, 'side' | 'action'>,
  offsetSeconds: string,
  sliceIndex: number | null,
): PlannedChildOrder {
  const { ladder } = fill;
  const perWhole = ladder.rules.unitsPerWhole;
  const worst = fill.fills[fill.fills.length - 1]!;
  const quantity = formatDecimal(contractsOf(fill.units, perWhole));
  return {
    venue: ladder.venue,
    venueMarketId: ladder.venueMarketId,
    side: order.side,
    action: order.action,
    type: 'limit',
    price: formatDecimal(priceDollars(worst.priceTicks)),
    quantity,
    timeInForce: 'ioc',
    offsetSeconds,
    sliceIndex,
    liquidity: 'taker',
    expectedFilledQuantity: quantity,
    expectedNotional: formatDecimal(fill.notional),
    expectedFees: formatDecimal(fill.fees),
    expectedFills: fill.fills.map((level) => ({
      price: formatDecimal(priceDollars(level.priceTicks)),
      quantity: formatDecimal(contractsOf(level.units, perWhole)),
      fee: formatDecimal(level.fee),
    })),
    queueAheadQuantity: null,
  };
}

/** A GTC order joining the touch; expected to fill completely at its price, in one operation. */
export function restingChild(
  market: VenueMarketSnapshot,
  touch: JoinableTouch,
  units: number,
  order: Pick<NormalizedOrder, 'side' | 'action'>,
): PlannedChildOrder {
  const { rules } = market;
  const price = priceDollars(touch.priceTicks);
  const contracts = contractsOf(units, rules.unitsPerWhole);
  const fee = computeFee(rules, { priceTicks: touch.priceTicks, quantityUnits: units, liquidity: 'maker' });
  const quantity = formatDecimal(contracts);
  return {
    venue: market.venue,
    venueMarketId: market.book.venueMarketId,
    side: order.side,
    action: order.action,
    type: 'limit',
    price: formatDecimal(price),
    quantity,
    timeInForce: 'gtc',
    offsetSeconds: '0',
    sliceIndex: null,
    liquidity: 'maker',
    expectedFilledQuantity: quantity,
    expectedNotional: formatDecimal(price.times(contracts)),
    expectedFees: formatDecimal(new Decimal(fee)),
    expectedFills: [{ price: formatDecimal(price), quantity, fee: formatDecimal(new Decimal(fee)) }],
    queueAheadQuantity: formatDecimal(contractsOf(touch.queueAheadUnits, rules.unitsPerWhole)),
  };
}
