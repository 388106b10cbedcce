import type { z } from 'zod';
import type { ApiErrorCode } from '../errors';

/**
 * The REST API, one row per route: method, path, the persisted GraphQL operation it runs, and how
 * the request maps to the operation's variables (path and query parameters by name, camelCased;
 * the body as one variable or spread). Adding an endpoint is adding a row and a .graphql document.
 * The same rows generate the OpenAPI document.
 */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  operation: string;
  tag: string;
  summary: string;
  description?: string;
  /**
   * The credential the route takes: an API key, or the dashboard (its session cookie, or a
   * dashboard token; read-only ones only read). `session` lets the dashboard's session call an API-key route too
   * (docs/dashboard.md): reads, risk settings, cancels; never order placement.
   * The dashboard's own session routes take `none` (no credential: signing in, reading the cookie's
   * session) or `session` (the live session of the cookie, with its CSRF token on changes). Both
   * run the gateway's internal operations, with the SHA-256 of the cookie as `tokenHash`.
   */
  auth: 'api_key' | 'dashboard' | 'none' | 'session';
  session?: boolean;
  /** The SHA-256 of the session cookie is the variable `tokenHash` (no cookie: 401). */
  sessionToken?: boolean;
  /** The limits on guessing a password (SIGN_IN_ATTEMPTS_PER_MINUTE each), per client address, email or user. */
  signInLimits?: SignInLimit[];
  /** A null answer is 401 unauthorized with this message. */
  nullIsUnauthorized?: string;
  /**
   * The session cookie: `set` from the answer's `token` (the answer's `session` is then the body),
   * or `clear` once the operation has run.
   */
  sessionCookie?: 'set' | 'clear';
  /** The body is these fields, and the answer (a scalar) as `field` when given: `{ signed_out: true, sessions_ended: 2 }`. */
  answerAs?: { constants: Record<string, true>; field?: string };
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /** The variable that receives the body; without it the body's fields are variables themselves. */
  bodyVariable?: string;
  /** The body's field names are the venue's own and reach the core as they are (not camelCased). */
  bodyVerbatim?: boolean;
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  /**
   * Answers as Server-Sent Events (gateway/eventStreams.ts): the operation's items, each as one
   * event, from the query's `after` or the Last-Event-ID header on, kept open.
   */
  stream?: boolean;
  /**
   * A simulated venue's book: in the test environment the answer is kept until the market's next
   * notice (gateway/bookCache.ts); live, read every time.
   */
  bookCache?: boolean;
  /** Answers as Server-Sent Events of markets' books, trades and quotes (gateway/marketStreams.ts): the operation is what each of its reads runs. */
  marketStream?: boolean;
  /** The answer is a page of events: each item's object becomes its `data` (contract/eventShape.ts). */
  events?: boolean;
  /**
   * Catalog data: the answer depends only on the environment and the request, the same for every
   * workspace and key, so the gateway may serve it from its short-lived cache (CATALOG_CACHE_MS).
   */
  catalog?: boolean;
  /**
   * Errors this route's operation answers with; the OpenAPI document adds those every route can and
   * those of what the route takes (a credential, path and filter ids, Idempotency-Key): errorCodesOf.
   */
  errors: ApiErrorCode[];
}

export type SignInLimit = 'address' | 'email' | 'user';

/** The 401 of a request without a live dashboard session. */
export const SIGNED_OUT = 'Sign in first: the session is missing, has ended or has expired.';
