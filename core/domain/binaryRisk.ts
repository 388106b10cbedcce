import { Decimal } from './decimals';

/**
 * Risk of binary-contract positions on one market. A YES contract pays $1 if the market resolves
 * YES, a NO contract $1 if it resolves NO. What is held cost `cost` in all; the worst case is the
 * outcome that pays least: loss = cost - min(YES quantity, NO quantity) payoff, never below the
 * best case. Fees already paid are realized P&L and are not part of it.
 */
export interface MarketHolding {
  yesQuantity: Decimal;
  /** What the YES contracts cost, fees excluded: their cost basis (exact, never from an average). */
  yesCost: Decimal;
  noQuantity: Decimal;
  noCost: Decimal;
  /** The venue's YES mid, or null without a two-sided book. */
  yesMid: Decimal | null;
}

export interface MarketRisk {
  /** Capital in the positions: their cost bases, both sides. */
  grossExposure: Decimal;
  /** Dollar exposure to YES at mark: YES value - NO value (positive: long YES). */
  netExposure: Decimal;
  /** YES contracts minus NO contracts. */
  netContracts: Decimal;
  /** Positions marked to mid (at cost where there is no mid). */
  marketValue: Decimal;
  unrealizedPnl: Decimal;
  /** Loss if the market resolves against the positions: cost - the smaller payoff. */
  worstCaseLoss: Decimal;
}

export function marketRisk(h: MarketHolding): MarketRisk {
  const { yesCost, noCost } = h;
  const cost = yesCost.add(noCost);
  const yesValue = h.yesMid ? h.yesQuantity.mul(h.yesMid) : yesCost;
  const noValue = h.yesMid ? h.noQuantity.mul(new Decimal(1).sub(h.yesMid)) : noCost;
  return {
    grossExposure: cost,
    netExposure: yesValue.sub(noValue),
    netContracts: h.yesQuantity.sub(h.noQuantity),
    marketValue: yesValue.add(noValue),
    unrealizedPnl: yesValue.add(noValue).sub(cost),
    worstCaseLoss: cost.sub(Decimal.min(h.yesQuantity, h.noQuantity)),
  };
}

/** Largest share of gross exposure in one market, and the Herfindahl index of all the shares. */
export function concentration(exposures: Decimal[]): { largestShare: Decimal; herfindahl: Decimal } {
  const total = exposures.reduce((a, b) => a.add(b), new Decimal(0));
  if (total.isZero()) return { largestShare: new Decimal(0), herfindahl: new Decimal(0) };
  const shares = exposures.map((e) => e.div(total));
  return {
    largestShare: shares.reduce((a, b) => Decimal.max(a, b), new Decimal(0)),
    herfindahl: shares.reduce((a, s) => a.add(s.mul(s)), new Decimal(0)),
  };
}
