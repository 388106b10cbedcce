/**
 * Errors the API answers with on purpose. Each has a stable code and the HTTP status the REST
 * gateway sends; `param` names the offending input where there is one. Anything that is not a
 * DomainError is an internal error and is masked before it leaves the core.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'risk_limit_exceeded'
  | 'insufficient_funds'
  | 'insufficient_position'
  | 'market_not_tradable'
  | 'no_executable_plan'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'venue_error'
  | 'venue_unavailable'
  | 'not_implemented';

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  risk_limit_exceeded: 422,
  insufficient_funds: 422,
  insufficient_position: 422,
  market_not_tradable: 422,
  no_executable_plan: 422,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  venue_error: 502,
  venue_unavailable: 503,
  not_implemented: 501,
};

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const invalidRequest = (param: string, message: string) => new DomainError('invalid_request', message, param);

export const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} with id '${id}'.`);

export const notImplemented = (what: string) =>
  new DomainError('not_implemented', `${what} is not available yet in this version of the service.`);
