import { z } from 'zod';
import { DECIMAL_PATTERN, isDecimalString, isStorableDecimalString, STORAGE_RULE, STORAGE_SCALE } from '../../contract/decimalStrings';
import { MAX_BOOK_DEPTH, MAX_COUNT_LIMIT, MAX_PAGE_LIMIT } from '../../contract/inputBounds';
import { DATE_RULE, INSTANT_RULE, isStorableInstant } from '../../contract/instants';
import { restVenueSpelling } from '../../contract/venueSpelling';
import { graphqlEnum } from '../graphqlEnums';

/** The inputs more than one resource's routes take: ids, decimals by sign, instants and days, pages, and the enums of the schema. */
export const id = (prefix: string) => z.string().min(1).max(64).describe(`An id starting with \`${prefix}_\`.`);
/**
 * Decimal inputs by sign, as the server takes them: the gateway checks the shape and the storage
 * scale (names the field), and the JSON schema's pattern says both, and the sign, in one regular
 * expression (the fraction: at most 6 significant places, trailing zeros beyond them allowed).
 */
const FRACTION = '(\\.\\d{1,6}0{0,12})?';
const DECIMAL_PATTERNS = {
  nonNegative: `^\\d{1,18}${FRACTION}$`,
  positive: `^(?=[\\d.]*[1-9])\\d{1,18}${FRACTION}$`,
  /** A price in dollars per contract: greater than 0 and less than 1. */
  price: `^0{1,18}\\.(?=\\d*[1-9])\\d{1,6}0{0,12}$`,
  /** A complex order's worst price: as a price, on the planner's grid of 4 decimal places. */
  limitPrice: `^0{1,18}\\.(?=\\d*[1-9])\\d{1,4}0{0,14}$`,
  /** A test subaccount's starting cash: below one trillion, so that trading profits can never push cash past its column. */
  balance: `^\\d{1,12}${FRACTION}$`,
} as const;
type DecimalSign = keyof typeof DECIMAL_PATTERNS;
const SIGN_RULE: Record<DecimalSign, string> = {
  nonNegative: 'must be at least 0',
  positive: 'must be greater than 0',
  price: 'must be greater than 0 and less than 1',
  limitPrice: 'must be greater than 0 and less than 1, at most 4 decimal places',
  balance: 'must be at least 0 and below 1,000,000,000,000',
};
const decimalOf = (sign: DecimalSign) => {
  const signed = new RegExp(DECIMAL_PATTERNS[sign]); // compiled once, not on every request
  return z
    .string()
    .regex(DECIMAL_PATTERN, 'must be a decimal string such as "0.43"')
    .refine((value) => !isDecimalString(value) || isStorableDecimalString(value), STORAGE_RULE)
    .refine((value) => !isStorableDecimalString(value) || signed.test(value), SIGN_RULE[sign])
    .meta({ format: 'decimal', pattern: DECIMAL_PATTERNS[sign] })
    .describe(`A decimal number as a string, stored exactly: at most ${STORAGE_SCALE} decimal places; ${SIGN_RULE[sign].replace('must be ', '')}.`);
};
export const decimal = decimalOf('nonNegative');
export const positive = decimalOf('positive');
export const price = decimalOf('price');
export const limitPrice = decimalOf('limitPrice');
export const balance = decimalOf('balance');
export const timestamp = z.iso
  .datetime({ offset: true })
  .refine((value) => isStorableInstant(new Date(value)), INSTANT_RULE)
  .describe('RFC 3339, e.g. 2026-11-22T10:00:00Z; from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once in UTC.');
export const day = (description: string) =>
  z.iso
    .date()
    .refine((value) => isStorableInstant(new Date(`${value}T00:00:00Z`)), DATE_RULE)
    .describe(`${description} From 0001-01-01 to 9999-12-31.`);

/** Counts a risk limit holds (open orders, orders a minute): what the core's Int and the int4 column store. */
export const count = z.number().int().min(0).max(MAX_COUNT_LIMIT);
const limit = z
  .string()
  .regex(/^\d{1,4}$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE_LIMIT))
  .describe(`Page size, 1 to ${MAX_PAGE_LIMIT}; 50 when left out.`)
  // What a client sends is an integer; the query string carries it as digits.
  .meta({ type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, pattern: undefined });
export const page = { limit: limit.optional(), cursor: z.string().max(512).optional().describe('The next_cursor of the previous page.') };

/** Levels a side of a book read, 1 to MAX_BOOK_DEPTH (docs/market-data.md); 10 when left out. */
export const depth = z
  .string()
  .regex(/^\d{1,3}$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_BOOK_DEPTH))
  .describe(`Levels a side, 1 to ${MAX_BOOK_DEPTH}; 10 when left out.`)
  .meta({ type: 'integer', minimum: 1, maximum: MAX_BOOK_DEPTH, pattern: undefined });

/** The creation window of a list: since inclusive, until exclusive; since later than until is refused (400, param since). */
export const createdWindow = {
  since: timestamp.optional().describe('Created at or after (inclusive). Not later than until (else 400, param since).'),
  until: timestamp.optional().describe('Created before (exclusive).'),
};
export const exchange = graphqlEnum('Exchange');
// Allowed values from the GraphQL schema's enums; venues are spelled sim-kalshi in REST, sim_kalshi in GraphQL.
export const venue = graphqlEnum('Venue', restVenueSpelling);
export const marketResult = graphqlEnum('MarketResult');
export const strategy = graphqlEnum('ExecutionStrategy');
export const side = graphqlEnum('OrderSide');
export const action = graphqlEnum('OrderAction');

