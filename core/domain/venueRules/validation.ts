/**
 * Checks a price or quantity, as the decimal string a client sent, against a
 * market's rules. Every failure names the field and says why, so the HTTP layer
 * can answer 400 invalid_request with `param` without knowing any venue.
 */
import { Decimal, formatDecimal, parseDecimalString } from '../decimals';
import { PRICE_TICKS_PER_DOLLAR } from '../matching/units';
import type { OutcomeSide } from '../orderTerms';
import { isOnPriceRanges } from './kalshiLive';
import type {
  MarketRules,
  PriceRangeRule,
  OrderInput,
  OrderValidation,
  PriceValidation,
  QuantityValidation,
  ValidationCode,
  ValidationError,
} from './types';

const MAX_INPUT_LENGTH = 64;

function fail(param: string, code: ValidationCode, message: string): ValidationError {
  return { ok: false, param, code, message };
}

/** Shared first steps: present, a string, short enough, and a plain decimal. */
function parseInput(value: unknown, param: string, example: string): Decimal | ValidationError {
  if (value === undefined || value === null) return fail(param, 'missing', `${param} is required`);
  if (typeof value !== 'string') {
    return fail(param, 'invalid_type', `${param} must be a decimal string such as "${example}", not a ${typeof value}`);
  }
  if (value.length > MAX_INPUT_LENGTH) {
    return fail(param, 'not_a_decimal', `${param} is longer than ${MAX_INPUT_LENGTH} characters`);
  }
  const parsed = parseDecimalString(value);
  if (parsed === null) {
    return fail(param, 'not_a_decimal', `${param} ${JSON.stringify(value)} is not a decimal string such as "${example}"`);
  }
  return parsed;
}

function isError(value: Decimal | ValidationError): value is ValidationError {
  return (value as ValidationError).ok === false;
}

/**
 * A limit (or protection) price in dollars per contract, e.g. "0.43" -> 4300 ticks. With
 * `priceRanges` (live Kalshi) the price must lie on one of the ranges, checked in YES terms: a NO
 * price p as 1 − p.
 */
export function validatePrice(rules: MarketRules, value: unknown, param = 'price', side: OutcomeSide = 'yes'): PriceValidation {
  const parsed = parseInput(value, param, rules.minPrice);
  if (isError(parsed)) return parsed;
  const text = value as string;
  if (parsed.lte(0) || parsed.gte(1)) {
    return fail(param, 'out_of_range', `${param} ${text} must be greater than 0 and less than 1`);
  }
  if (rules.priceRanges !== undefined) return validateOnRanges(rules.priceRanges, parsed, text, param, side);
  const ticks = parsed.times(PRICE_TICKS_PER_DOLLAR);
  if (!ticks.isInteger() || ticks.toNumber() % rules.tickSizeTicks !== 0) {
    return fail(param, 'off_tick', `${param} ${text} is not a multiple of the tick size ${rules.tickSize}`);
  }
  const priceTicks = ticks.toNumber();
  if (priceTicks < rules.minPriceTicks || priceTicks > rules.maxPriceTicks) {
    return fail(param, 'out_of_range', `${param} ${text} must be between ${rules.minPrice} and ${rules.maxPrice}`);
  }
  return { ok: true, priceTicks };
}

function validateOnRanges(ranges: readonly PriceRangeRule[], parsed: Decimal, text: string, param: string, side: OutcomeSide): PriceValidation {
  const ticks = parsed.times(PRICE_TICKS_PER_DOLLAR);
  const priceTicks = ticks.isInteger() ? ticks.toNumber() : null;
  const yesTicks = priceTicks === null ? null : side === 'yes' ? priceTicks : PRICE_TICKS_PER_DOLLAR - priceTicks;
  if (priceTicks !== null && yesTicks !== null && isOnPriceRanges(ranges, yesTicks)) return { ok: true, priceTicks };
  const valid = ranges.map((r) => `${formatDecimal(r.start)} to ${formatDecimal(r.end)} in steps of ${formatDecimal(r.step)}`).join(', ');
  const terms = side === 'yes' ? '' : ` (as the YES price ${new Decimal(1).minus(parsed).toFixed()})`;
  return fail(param, 'off_tick', `${param} ${text}${terms} is not a valid price on this market: valid YES prices are ${valid}`);
}

/** An order size in contracts or shares, e.g. "12.5" shares -> 1250 base units. */
export function validateQuantity(rules: MarketRules, value: unknown, param = 'quantity'): QuantityValidation {
  const parsed = parseInput(value, param, rules.minSize);
  if (isError(parsed)) return parsed;
  const text = value as string;
  if (parsed.lte(0)) return fail(param, 'not_positive', `${param} ${text} must be greater than 0`);
  const units = parsed.times(rules.unitsPerWhole);
  if (!units.isInteger()) {
    const step = rules.unitsPerWhole === 1 ? 'whole contracts' : `the quantity step ${rules.quantityStep}`;
    return fail(param, 'off_step', `${param} ${text} is not a multiple of ${step}`);
  }
  if (units.lt(rules.minSizeUnits)) {
    return fail(param, 'below_min_size', `${param} ${text} is below the minimum order size ${rules.minSize}`);
  }
  if (units.gt(rules.maxSizeUnits)) {
    return fail(param, 'too_large', `${param} ${text} is above the maximum order size ${rules.maxSize}`);
  }
  return { ok: true, quantityUnits: units.toNumber() };
}

/** Quantity always; price required for a limit order, optional (protection) for a market order. */
export function validateOrderInput(
  rules: MarketRules,
  input: OrderInput,
  params: { readonly price?: string; readonly quantity?: string } = {},
): OrderValidation {
  const priceParam = params.price ?? 'price';
  let priceTicks: number | null = null;
  if (input.type === 'limit' || (input.price !== undefined && input.price !== null)) {
    const price = validatePrice(rules, input.price, priceParam, input.side);
    if (!price.ok) return price;
    priceTicks = price.priceTicks;
  }
  const quantity = validateQuantity(rules, input.quantity, params.quantity ?? 'quantity');
  if (!quantity.ok) return quantity;
  return { ok: true, priceTicks, quantityUnits: quantity.quantityUnits };
}
