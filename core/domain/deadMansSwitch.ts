import { MAX_SWITCH_TIMEOUT_SECONDS, MIN_SWITCH_TIMEOUT_SECONDS } from '../../contract/inputBounds';
import { DomainError, invalidRequest } from './errors';

/**
 * The dead-man's switch's pure rules (docs/dead-mans-switch.md): the timeout's bounds, how often a
 * core records the keep-alive of ordinary requests, and the refusal of new orders once it lapsed.
 */

export const TIMEOUT_RULE = `must be a whole number of seconds from ${MIN_SWITCH_TIMEOUT_SECONDS} to ${MAX_SWITCH_TIMEOUT_SECONDS}`;

/** The timeout in milliseconds, or invalid_request naming `param` (the input's path). */
export function timeoutMsOf(seconds: number, param = 'timeoutSeconds'): number {
  if (!Number.isInteger(seconds) || seconds < MIN_SWITCH_TIMEOUT_SECONDS || seconds > MAX_SWITCH_TIMEOUT_SECONDS) {
    throw invalidRequest(param, `timeoutSeconds ${TIMEOUT_RULE}.`);
  }
  return seconds * 1000;
}

/**
 * The keep-alive of an ordinary request is written at most once per this many milliseconds per
 * core, workspace and environment: a quarter of the shortest armed timeout there. A switch kept
 * alive by requests alone thus lapses between 3/4 of its timeout and its timeout after the last one
 * (POST /v1/heartbeat is always written).
 */
export const keepAliveEveryMs = (shortestTimeoutMs: number): number => Math.floor(shortestTimeoutMs / 4);

/** Whether a keep-alive last written at `lastWrittenAt` is due again at `now` (both ms, one clock). */
export const keepAliveDue = (lastWrittenAt: number | undefined, now: number, shortestTimeoutMs: number): boolean =>
  lastWrittenAt === undefined || now - lastWrittenAt >= keepAliveEveryMs(shortestTimeoutMs);

/** What a new order meets while a switch covering its subaccount has lapsed (fired, or expired and about to). */
export const deadMansSwitchFired = (subaccountId: string) =>
  new DomainError(
    'dead_mans_switch_fired',
    `A dead-man's switch covering subaccount '${subaccountId}' has lapsed: its open orders are canceled and no new order is accepted until the switch is re-armed or disarmed.`,
  );
