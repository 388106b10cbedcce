import { createHash } from 'node:crypto';
import { Decimal } from './decimals';
import type { MarketOutcome } from './settlement';

/**
 * How a seeded simulated market resolves (docs/simulated-venues.md, "Close and resolution"): YES
 * with the probability of its fair value, by a draw that depends only on the question and its close
 * time: u = the first 32 bits of SHA-256("<question key>@<close time, ISO>") / 2^32; YES when
 * u < fair value, else NO. Both simulated venues' listings of one question (same key, same close
 * time) resolve alike, on every core and machine. Pure.
 */
export function seededOutcome(questionKey: string, closeTime: Date, fairValue: Decimal.Value): MarketOutcome {
  const digest = createHash('sha256').update(`${questionKey}@${closeTime.toISOString()}`).digest();
  const draw = new Decimal(digest.readUInt32BE(0)).div(2 ** 32);
  const yes = draw.lt(fairValue);
  return { result: yes ? 'yes' : 'no', settlementValue: new Decimal(yes ? 1 : 0) };
}
