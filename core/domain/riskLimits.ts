import { MAX_COUNT_LIMIT } from '../../contract/inputBounds';
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


const DECIMAL_LIMITS = ['maxOrderNotional', 'maxPositionPerMarket', 'maxGrossExposure', 'maxDailyRealizedLoss'] as const;
const COUNT_LIMITS = ['maxOpenOrders', 'maxOrdersPerMinute'] as const;

/**
 * Validates an update: fields left out stay as they are, null removes a limit, and a value must be
 * a non-negative decimal (amounts) or a non-negative integer (counts). Zero forbids trading.
 */
export function validateRiskLimitsUpdate(update: RiskLimitsUpdate): RiskLimitsUpdate {
  const out: RiskLimitsUpdate = {};
  for (const field of DECIMAL_LIMITS) {
    const value = update[field];
    if (value === undefined) continue;
    out[field] = value === null ? null : parseStorableDecimal(field, value, { min: '0' }).toFixed();
  }
  for (const field of COUNT_LIMITS) {
    const value = update[field];
    if (value === undefined) continue;
    if (value !== null && (!Number.isInteger(value) || value < 0 || value > MAX_COUNT_LIMIT)) {
      throw invalidRequest(field, `${field} must be an integer from 0 to ${MAX_COUNT_LIMIT}, or null.`);
    }
    out[field] = value;
  }
  return out;
}
