import { invalidRequest } from './errors';
import { parseStorableDecimal } from './decimals';

/**
 * Pre-trade limits per subaccount. Amounts are dollars, positions are contracts; null means no
 * limit of that kind. New subaccounts start with these defaults, deliberately finite.
 */
export const DEFAULT_RISK_LIMITS = {
  maxOrderNotional: '10000',
  maxPositionPerMarket: '100000',
  maxGrossExposure: '100000',
  maxDailyRealizedLoss: '10000',
  maxOpenOrders: 500,
  maxOrdersPerMinute: 600,
};

export interface RiskLimitsUpdate {
  maxOrderNotional?: string | null;
  maxPositionPerMarket?: string | null;
  maxGrossExposure?: string | null;
  maxDailyRealizedLoss?: string | null;
  maxOpenOrders?: number | null;
  maxOrdersPerMinute?: number | null;
}

const DECIMAL_LIMITS = {
  maxOrderNotional: 'max_order_notional',
  maxPositionPerMarket: 'max_position_per_market',
  maxGrossExposure: 'max_gross_exposure',
  maxDailyRealizedLoss: 'max_daily_realized_loss',
} as const;
const COUNT_LIMITS = { maxOpenOrders: 'max_open_orders', maxOrdersPerMinute: 'max_orders_per_minute' } as const;

/**
 * Validates an update: fields left out stay as they are, null removes a limit, and a value must be
 * a non-negative decimal (amounts) or a non-negative integer (counts). Zero forbids trading.
 */
export function validateRiskLimitsUpdate(update: RiskLimitsUpdate): RiskLimitsUpdate {
  const out: RiskLimitsUpdate = {};
  for (const [field, param] of Object.entries(DECIMAL_LIMITS) as [keyof typeof DECIMAL_LIMITS, string][]) {
    const value = update[field];
    if (value === undefined) continue;
    out[field] = value === null ? null : parseStorableDecimal(param, value, { min: '0' }).toFixed();
  }
  for (const [field, param] of Object.entries(COUNT_LIMITS) as [keyof typeof COUNT_LIMITS, string][]) {
    const value = update[field];
    if (value === undefined) continue;
    if (value !== null && (!Number.isInteger(value) || value < 0 || value > 1_000_000_000)) {
      throw invalidRequest(param, `${param} must be a non-negative integer or null.`);
    }
    out[field] = value;
  }
  return out;
}
