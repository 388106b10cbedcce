import { Decimal } from './decimals';
import { deadMansSwitchFired } from './deadMansSwitch';
import { DomainError } from './errors';
import { checkPreTradeRisk, RiskLimitExceeded, type ProposedOrder, type RiskLimitValues, type SubaccountExposure } from './preTradeRisk';

/**
 * The pre-trade checks of the order path (preTradeRisk.ts), run over the children of a planned
 * complex order without placing anything: which check would refuse which child. A complex order's
 * children are sent slice after slice (a sweep's children together) and each meets the checks as an
 * ordinary order, so here they are checked in that order, each against the subaccount's figures
 * now plus every earlier child that passed (a refused child writes nothing, so later children do
 * not see it). An earlier child that passed counts as placement would leave it:
 * - its contracts and notional at its price, as an open order reserves them: position on its market
 *   (a buy), contracts already offered (a sell), gross exposure and cash (a buy); once its slice is
 *   over, an immediate-or-cancel child's fills stay at or below that price, and its expected fees
 *   are taken from the cash as well;
 * - one open order while it may still be working: a child of the same slice time (sent together),
 *   or one that rests (gtc); an immediate-or-cancel child of an earlier slice is final by then;
 * - one order in the last minute when it was sent less than 60 s before.
 * Today's realized P&L is taken as it is now.
 */
export interface PlannedChildCheck {
  /** Which market the child trades (its position and offered contracts are per market and side). */
  market: string;
  order: ProposedOrder;
  /** When the child is sent, in ms after the parent's start (children of one time are one slice). */
  offsetMs: number;
  /** Whether the child rests (gtc) and so stays an open order after its slice. */
  rests: boolean;
  /** The fees its expected fills pay (taken from the cash once its slice is over). */
  expectedFees: Decimal;
}

/** The figures per market: the two fields of SubaccountExposure that depend on the market. */
export type MarketHolding = Pick<SubaccountExposure, 'positionIncludingOpenBuys' | 'sellableQuantity'>;

export interface PlanRiskState {
  subaccountId: string;
  limits: RiskLimitValues;
  /** The subaccount-wide figures (their per-market fields are replaced by `markets`). */
  exposure: SubaccountExposure;
  /** The figures of every market a child may trade. */
  markets: ReadonlyMap<string, MarketHolding>;
  tradingHalted: boolean;
  /** A dead-man's switch covering the subaccount has lapsed: the order path refuses every order before its checks. */
  deadMansSwitchLapsed: boolean;
}

export interface ChildRefusal {
  /** The child's position in the plan's `children` (0-based). */
  child: number;
  /** What the child's order would be refused with (the child's `reject_code` at placement). */
  code: string;
  /** The limit that refuses it (`kill_switch`, `max_order_notional`, ...); null when no limit does (funds, position, a lapsed dead-man's switch). */
  limit: string | null;
  message: string;
}

const MINUTE_MS = 60_000;

/** The refusals of a plan's children, in plan order; none when every child would pass. */
export function checkPlannedChildren(children: readonly PlannedChildCheck[], state: PlanRiskState): ChildRefusal[] {
  // Slice after slice, as placement sends them; within a slice, in plan order.
  const order = children.map((child, index) => ({ child, index })).sort((a, b) => a.child.offsetMs - b.child.offsetMs || a.index - b.index);
  const markets = new Map([...state.markets].map(([market, holding]) => [market, { ...holding }]));
  const base = state.exposure;
  let grossExposure = base.grossExposure;
  let availableCash = base.availableCash;
  let restingOpen = 0; // passed children that rest
  let sliceOpen = 0; // passed children of the current slice that do not rest
  let sliceFees = new Decimal(0); // their expected fees (buys)
  let sliceAt: number | null = null;
  const passedAt: number[] = []; // when each passed child was sent, in order
  let windowStart = 0;
  const refusals: ChildRefusal[] = [];

  for (const { child, index } of order) {
    if (child.offsetMs !== sliceAt) {
      // The previous slice is over: its immediate-or-cancel children are final, their fees paid.
      if (availableCash !== null) availableCash = availableCash.sub(sliceFees);
      sliceOpen = 0;
      sliceFees = new Decimal(0);
      sliceAt = child.offsetMs;
    }
    while (windowStart < passedAt.length && child.offsetMs - passedAt[windowStart]! >= MINUTE_MS) windowStart += 1;
    const holding = markets.get(child.market);
    if (!holding) throw new Error(`no figures for market ${child.market}`);
    const refusal = refusalOf(child.order, state, {
      ...base,
      positionIncludingOpenBuys: holding.positionIncludingOpenBuys,
      sellableQuantity: holding.sellableQuantity,
      grossExposure,
      availableCash,
      openOrders: base.openOrders + restingOpen + sliceOpen,
      ordersInLastMinute: base.ordersInLastMinute + passedAt.length - windowStart,
    });
    if (refusal) {
      refusals.push({ child: index, ...refusal });
      continue;
    }
    const { action, quantity, worstPrice } = child.order;
    if (action === 'buy') {
      const notional = worstPrice.mul(quantity);
      holding.positionIncludingOpenBuys = holding.positionIncludingOpenBuys.add(quantity);
      grossExposure = grossExposure.add(notional);
      if (availableCash !== null) availableCash = availableCash.sub(notional);
      if (!child.rests) sliceFees = sliceFees.add(child.expectedFees);
    } else {
      holding.sellableQuantity = holding.sellableQuantity.sub(quantity);
    }
    if (child.rests) restingOpen += 1;
    else sliceOpen += 1;
    passedAt.push(child.offsetMs);
  }
  return refusals.sort((a, b) => a.child - b.child);
}

/** What the order path would refuse this order with, in its order: a lapsed dead-man's switch, then checkPreTradeRisk. */
function refusalOf(order: ProposedOrder, state: PlanRiskState, exposure: SubaccountExposure): Omit<ChildRefusal, 'child'> | null {
  try {
    if (state.deadMansSwitchLapsed) throw deadMansSwitchFired(state.subaccountId);
    checkPreTradeRisk(order, state.limits, exposure, state.tradingHalted);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, limit: error instanceof RiskLimitExceeded ? error.limit : null, message: error.message };
  }
}
