/**
 * Implementation shortfall (Perold 1988) against the arrival mid P0, split the usual way
 * (Wagner; Kissell & Glantz). With direction s = +1 for a buy and −1 for a sell, intended quantity
 * Q, and for each fill of quantity q at price p of a child sent when the mid was M:
 *
 *   delay cost         s × (M − P0) × q          the market moved before the child was sent
 *   market impact      s × (p − M) × q           the price paid against the mid at sending
 *   fees               fee                       as charged
 *   opportunity cost   s × (P_end − P0) × (Q − F)   the move on what never filled (F = Σ q)
 *   total              the sum = s × Σ (p − P0) q + Σ fee + s × (P_end − P0)(Q − F)
 *
 * All in exact dollars; bps are of the paper notional P0 × Q, so the parts' bps add up to the total
 * (each is rounded on its own, to 2 decimals). Docs: docs/tca.md.
 */
import { type Direction } from '../planning/executionFigures';
import { Decimal } from '../decimals';
import type { ParsedChild } from './tcaInput';

export interface ExecutionCosts {
  readonly ordered: Decimal;
  readonly filled: Decimal;
  readonly notional: Decimal;
  readonly fees: Decimal;
  readonly delay: Decimal;
  readonly impact: Decimal;
  readonly childOrderCount: number;
}

export const NO_COSTS: ExecutionCosts = {
  ordered: new Decimal(0),
  filled: new Decimal(0),
  notional: new Decimal(0),
  fees: new Decimal(0),
  delay: new Decimal(0),
  impact: new Decimal(0),
  childOrderCount: 0,
};

/** One child's delay, market impact and fees, from its fills and the mid when it was sent. */
export function childCosts(child: ParsedChild, arrivalMid: Decimal, direction: Direction): ExecutionCosts {
  let filled = new Decimal(0);
  let notional = new Decimal(0);
  let fees = new Decimal(0);
  for (const fill of child.fills) {
    filled = filled.plus(fill.quantity);
    notional = notional.plus(fill.price.times(fill.quantity));
    fees = fees.plus(fill.fee);
  }
  return {
    ordered: child.quantity,
    filled,
    notional,
    fees,
    delay: child.midAtSend.minus(arrivalMid).times(filled).times(direction),
    impact: notional.minus(child.midAtSend.times(filled)).times(direction),
    childOrderCount: 1,
  };
}

export function addCosts(a: ExecutionCosts, b: ExecutionCosts): ExecutionCosts {
  return {
    ordered: a.ordered.plus(b.ordered),
    filled: a.filled.plus(b.filled),
    notional: a.notional.plus(b.notional),
    fees: a.fees.plus(b.fees),
    delay: a.delay.plus(b.delay),
    impact: a.impact.plus(b.impact),
    childOrderCount: a.childOrderCount + b.childOrderCount,
  };
}

/** s × (P_end − P0) × (Q − F): the price move on the quantity that never filled. */
export function opportunityCost(intended: Decimal, filled: Decimal, arrivalMid: Decimal, endMid: Decimal, direction: Direction): Decimal {
  return endMid.minus(arrivalMid).times(intended.minus(filled)).times(direction);
}
