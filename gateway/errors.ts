import { statusOf, type ErrorCode } from '../contract/errors';

/**
 * An error the gateway answers with: a code of the catalogue (contract/errors.ts), which gives its
 * HTTP status, a message safe to show, and where useful the offending parameter. One middleware
 * (middleware/errorEnvelope.ts) writes them.
 */
export type ApiErrorCode = ErrorCode;

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: { param?: string; limit?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = statusOf(code);
  }
}

export const unauthorized = () => new ApiError('unauthorized', 'The API key is missing or invalid.');
export const upstreamUnavailable = () =>
  // Honest for writes: the core may still be carrying the request out (a live order at a slow venue).
  new ApiError(
    'upstream_unavailable',
    'The core service did not answer in time; the request may or may not have been carried out. Retry with the same Idempotency-Key to get its outcome without doing it twice.',
  );
