/** The TCA input checked and parsed once: exact decimals and instants, or a 400 naming the field. */
import { Decimal, parseDecimalString, quantityOf } from '../decimals';
import { invalidRequest } from '../errors';
import { directionOf, type Direction } from '../planning/executionFigures';
import type { TcaFill, TcaInput } from './types';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

export interface ParsedFill {
  readonly price: Decimal;
  readonly quantity: Decimal;
  readonly fee: Decimal;
  readonly executedAtMs: number;
  readonly executedAt: string;
}

export interface ParsedChild {
  readonly childId: string;
  readonly venue: string;
  readonly midAtSend: Decimal;
  readonly quantity: Decimal;
  readonly fills: readonly ParsedFill[];
}

export interface ParsedTcaInput {
  readonly direction: Direction;
  readonly intendedQuantity: Decimal;
  readonly arrivalMid: Decimal;
  readonly endMid: Decimal;
  readonly startedAtMs: number;
  readonly endedAtMs: number;
  readonly children: readonly ParsedChild[];
  readonly predictedAveragePrice: Decimal | null;
  readonly predictedAllInAveragePrice: Decimal | null;
  readonly predictedFilledQuantity: Decimal | null;
}

function decimal(param: string, value: unknown): Decimal {
  const parsed = parseDecimalString(value);
  if (parsed === null) throw invalidRequest(param, `${param} must be a decimal string such as "0.43".`);
  return parsed;
}

/** A price or mid strictly between 0 and 1 (a mid may be a half tick). */
function price(param: string, value: unknown): Decimal {
  const parsed = decimal(param, value);
  if (parsed.lte(0) || parsed.gte(1)) throw invalidRequest(param, `${param} must be greater than 0 and less than 1.`);
  return parsed;
}

function positive(param: string, value: unknown): Decimal {
  const parsed = decimal(param, value);
  if (parsed.lte(0)) throw invalidRequest(param, `${param} must be greater than 0.`);
  return parsed;
}

function instant(param: string, value: unknown): number {
  const ms = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidRequest(param, `${param} must be an RFC 3339 time such as "2025-03-04T05:06:07Z".`);
  return ms;
}

/** A predicted average (an all-in one may pass 1 with fees), so only required to be positive. */
function optionalPositive(param: string, value: string | null | undefined): Decimal | null {
  return value === undefined || value === null ? null : positive(param, value);
}

export function parseTcaInput(input: TcaInput): ParsedTcaInput {
  if (input.side !== 'yes' && input.side !== 'no') throw invalidRequest('side', 'side must be yes or no.');
  if (input.action !== 'buy' && input.action !== 'sell') throw invalidRequest('action', 'action must be buy or sell.');
  const intendedQuantity = positive('intendedQuantity', input.intendedQuantity);
  const startedAtMs = instant('startedAt', input.startedAt);
  const endedAtMs = instant('endedAt', input.endedAt);
  if (endedAtMs < startedAtMs) throw invalidRequest('endedAt', 'endedAt must not be before startedAt.');
  if (!Array.isArray(input.children)) throw invalidRequest('children', 'children must be a list.');

  const children = input.children.map((child, index): ParsedChild => {
    const at = `children[${index}]`;
    if (typeof child.childId !== 'string' || child.childId.length === 0) throw invalidRequest(`${at}.childId`, 'childId is required.');
    if (typeof child.venue !== 'string' || child.venue.length === 0) throw invalidRequest(`${at}.venue`, 'venue is required.');
    instant(`${at}.sentAt`, child.sentAt);
    if (!Array.isArray(child.fills)) throw invalidRequest(`${at}.fills`, 'fills must be a list.');
    const fills = child.fills.map((fill: TcaFill, position: number): ParsedFill => {
      const fillAt = `${at}.fills[${position}]`;
      return {
        price: price(`${fillAt}.price`, fill.price),
        quantity: positive(`${fillAt}.quantity`, fill.quantity),
        fee: decimal(`${fillAt}.fee`, fill.fee),
        executedAtMs: instant(`${fillAt}.executedAt`, fill.executedAt),
        executedAt: fill.executedAt,
      };
    });
    return {
      childId: child.childId,
      venue: child.venue,
      midAtSend: price(`${at}.midAtSend`, child.midAtSend),
      quantity: positive(`${at}.quantity`, child.quantity),
      fills,
    };
  });

  const filled = quantityOf(children.flatMap((child) => child.fills));
  if (filled.gt(intendedQuantity)) {
    throw invalidRequest('children', `The fills (${filled.toFixed()}) exceed the intended quantity (${intendedQuantity.toFixed()}).`);
  }
  const prediction = input.prediction ?? null;
  const predictedFilled = prediction?.expectedFilledQuantity;
  return {
    direction: directionOf(input.action),
    intendedQuantity,
    arrivalMid: price('arrivalMid', input.arrivalMid),
    endMid: price('endMid', input.endMid),
    startedAtMs,
    endedAtMs,
    children,
    predictedAveragePrice: optionalPositive('prediction.expectedAveragePrice', prediction?.expectedAveragePrice),
    predictedAllInAveragePrice: optionalPositive('prediction.allInAveragePrice', prediction?.allInAveragePrice),
    predictedFilledQuantity:
      predictedFilled === undefined || predictedFilled === null ? null : decimal('prediction.expectedFilledQuantity', predictedFilled),
  };
}
