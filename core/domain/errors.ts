import { statusOf, type CoreErrorCode } from '../../contract/errors';

/**
 * Errors the API answers with on purpose: a code of the catalogue (contract/errors.ts) that the core
 * may raise, whose HTTP status the catalogue gives; `param` names the offending input, as GraphQL
 * names it (the gateway spells it as REST does), where there is one. Anything that is not a
 * DomainError is an internal error and is masked before it leaves the core.
 */
export type ErrorCode = CoreErrorCode;

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.status = statusOf(code);
  }
}

/**
 * A rate limit we cannot wait out within the request: the venue's for the subaccount's credential
 * (its 429s, or our client-side buckets that keep us under it). Nothing was sent to the venue, so
 * the request may be sent again after `retryAfterSeconds`, the gateway's `Retry-After`.
 */
/** A wait of `ms` as Retry-After: whole seconds, at least 1 (1 when nobody said how long). */
export const retryAfterSeconds = (ms: number | undefined): number => Math.max(1, Math.ceil((ms ?? 0) / 1000));

export class RateLimited extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

export const invalidRequest = (param: string, message: string) => new DomainError('invalid_request', message, param);

export const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} with id '${id}'.`);

export const notImplemented = (what: string) =>
  new DomainError('not_implemented', `${what} is not available yet in this version of the service.`);
