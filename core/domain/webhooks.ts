import { DEFAULT_PREVIOUS_SECRET_SECONDS, MAX_PREVIOUS_SECRET_SECONDS } from '../../contract/inputBounds';
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { invalidRequest } from './errors';
import { exponentialDelayMs } from './backoff';
import { parseTypeFilter } from './events';

/**
 * Webhooks' rules (docs/webhooks.md): the signing secret, the signature, the retry schedule, and
 * which URLs and addresses an endpoint may have. No I/O here.
 */

/** `whsec_` and 32 random bytes, base64url: the key of the HMAC (its text, as the receiver holds it). */
export const generateWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export const SIGNATURE_HEADER = 'Webhook-Signature';
export const EVENT_ID_HEADER = 'Webhook-Id';
export const ATTEMPT_HEADER = 'Webhook-Attempt';

/**
 * The Webhook-Signature header of a body sent at `timestamp` (unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed by the secret's text>`, one v1
 * per secret in the order given (after a rotation: the new secret's, then the previous one's), so
 * that a receiver holding either accepts it (the Standard Webhooks convention).
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  const macs = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  return [`t=${timestamp}`, ...macs].join(',');
}

/** A rotation's expire_previous_in_seconds: whole seconds from 0 (the previous secret stops at once) to 7 days. */
export function checkPreviousSecretSeconds(value: number | null | undefined): number {
  const seconds = value ?? DEFAULT_PREVIOUS_SECRET_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_PREVIOUS_SECRET_SECONDS) {
    throw invalidRequest('expirePreviousInSeconds', `expirePreviousInSeconds must be a whole number of seconds from 0 to ${MAX_PREVIOUS_SECRET_SECONDS} (7 days).`);
  }
  return seconds;
}

/** The longest URL an endpoint may have. */
export const MAX_URL_LENGTH = 2048;

/**
 * An endpoint's URL as stored: http or https, a host, no credentials in it, no fragment. Where it
 * points (a private address) is judged when a delivery connects, after DNS (isRefusedAddress).
 */
export function checkEndpointUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest('url', 'url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRequest('url', 'url must use https (or http).');
  if (url.username || url.password) throw invalidRequest('url', 'url must not carry a user name or password.');
  if (url.hash) throw invalidRequest('url', 'url must not have a fragment.');
  if (value.length > MAX_URL_LENGTH) throw invalidRequest('url', `url must be at most ${MAX_URL_LENGTH} characters.`);
  return url.toString();
}

/** An endpoint's event types: at least one, each exact or `<object>.*` (as GET /v1/events takes them), without repeats. */
export function checkEndpointTypes(types: readonly string[]): string[] {
  if (types.length === 0) throw invalidRequest('eventTypes', 'eventTypes must name at least one event type (order.* takes every order event).');
  parseTypeFilter(types, 'eventTypes');
  return [...new Set(types)];
}

/** Where a delivery may not connect unless WEBHOOK_ALLOW_PRIVATE_URLS: ./addressFence.ts. */
export { isRefusedAddress } from './addressFence';

/**
 * What an attempt refused for its address records: never the address a name resolved to (that
 * would map the core's network for whoever registers a name pointing inside).
 */
export const REFUSED_LITERAL = 'refused to connect: the host is a loopback, private, link-local or other special-purpose address (WEBHOOK_ALLOW_PRIVATE_URLS is off)';
export const REFUSED_RESOLVED = 'refused to connect: the host resolves to a loopback, private, link-local or other special-purpose address (WEBHOOK_ALLOW_PRIVATE_URLS is off)';

/** A URL's host as an IP address when it is one (brackets of IPv6 removed), else null. */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

export interface RetrySchedule {
  /** The delay after the first failure (WEBHOOK_RETRY_BASE_MS); doubled after each further one. */
  baseMs: number;
  /** The longest delay between two attempts (WEBHOOK_RETRY_MAX_DELAY_MS). */
  maxDelayMs: number;
  /** How long after its event a delivery is retried (WEBHOOK_RETRY_WINDOW_MS, 3 days). */
  windowMs: number;
}

/**
 * When to try again after `attempts` failed attempts: base × 2^(attempts−1), at most the cap, less
 * up to a quarter at random (so receivers back up after an outage are not hit by every delivery at
 * once); null once that is past the window that began at `since` (the delivery is then given up).
 */
export function nextAttemptAt(schedule: RetrySchedule, attempts: number, since: Date, now: Date, random = Math.random): Date | null {
  const full = exponentialDelayMs(schedule.baseMs, schedule.maxDelayMs, attempts);
  const at = new Date(now.getTime() + Math.round(full * (1 - random() / 4)));
  return at.getTime() > since.getTime() + schedule.windowMs ? null : at;
}
