import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from './errors';

/**
 * How long a refusal for a credential's or a workspace's own limits waits before it is answered
 * (the analysts' endpoint, event streams and subscriptions): between 250 and 750 ms, at random, so
 * that refusals given together do not come back together. A client that honours Retry-After (1 s
 * at least) loses nothing by it; one that retries at once, in a loop, is slowed to about two
 * refusals a second per connection instead of thousands, which would take the event loop from
 * every other tenant at a fraction of a millisecond each (bench/README.md, "Tenant isolation").
 */
export const REFUSAL_DELAY_MS = { min: 250, max: 750 };

/** Runs `step`; a 429 it throws is thrown again after REFUSAL_DELAY_MS. */
export async function refusalsDelayed<T>(step: () => Promise<T>, random = Math.random): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) await sleep(REFUSAL_DELAY_MS.min + random() * (REFUSAL_DELAY_MS.max - REFUSAL_DELAY_MS.min));
    throw error;
  }
}
