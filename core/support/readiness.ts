/**
 * Readiness probes (GET /readyz on the gateway and the core, docs/operations.md): named checks run
 * at once, each within a time limit, so a hung dependency makes the probe answer "down" in time
 * rather than hang it. The answer names what is down; it never carries a dependency's own error
 * text, which may hold a host, a connection string or a query.
 */

/** What a check found beyond "up", shown under its name (e.g. the core's own checks, seen from a gateway). */
export type CheckDetails = Record<string, unknown>;

/** Resolves when the dependency is usable (optionally with details); throws when it is not. */
export type Check = () => Promise<CheckDetails | void>;

/** A check and the longest the probe waits for it. */
export interface TimedCheck {
  run: Check;
  timeoutMs: number;
}

/** A check's failure with a reason of our own wording, safe to show, and details to show with it. */
export class CheckFailed extends Error {
  constructor(
    reason: string,
    readonly details: CheckDetails = {},
  ) {
    super(reason);
  }
}

/** One check's result: `ms` is how long it took; `reason` says why it is down. */
export type CheckOutcome = { status: 'up' | 'down'; ms: number; reason?: string } & CheckDetails;

export interface ReadinessReport {
  status: 'ready' | 'unready';
  /** The names of the checks that are down, empty when ready. */
  down: string[];
  checks: Record<string, CheckOutcome>;
}

/** HTTP status of a readiness report: 200 when ready, 503 when anything is down. */
export const readinessStatus = (report: ReadinessReport): 200 | 503 => (report.status === 'ready' ? 200 : 503);

/**
 * A probe over `checks`, run at once, each within its own time. Probes that arrive while one is
 * running share its answer: a burst of probes (several load balancers, or someone hammering the
 * unauthenticated path) costs the dependencies one round of checks, not one per request.
 */
export function readinessProbe(checks: Readonly<Record<string, TimedCheck>>): () => Promise<ReadinessReport> {
  let running: Promise<ReadinessReport> | undefined;
  const evaluate = async (): Promise<ReadinessReport> => {
    const names = Object.keys(checks);
    const outcomes = await Promise.all(names.map((name) => runCheck(checks[name])));
    const down = names.filter((_, i) => outcomes[i].status === 'down');
    return { status: down.length === 0 ? 'ready' : 'unready', down, checks: Object.fromEntries(names.map((name, i) => [name, outcomes[i]])) };
  };
  return () => {
    running ??= evaluate().finally(() => {
      running = undefined;
    });
    return running;
  };
}

/**
 * `work`'s result, or a CheckFailed once `timeoutMs` has passed. The work itself goes on (nothing
 * here can cancel a query), but nobody waits for it any more.
 */
export async function withinTime<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function runCheck({ run, timeoutMs }: TimedCheck): Promise<CheckOutcome> {
  const started = Date.now();
  try {
    const details = await withinTime(run(), timeoutMs);
    return { status: 'up', ms: Date.now() - started, ...(details ?? {}) };
  } catch (error) {
    // The dependency's own message stays out: it may name a host, a URL with a password, or SQL.
    const reason = error instanceof CheckFailed ? error.message : 'unavailable';
    const details = error instanceof CheckFailed ? error.details : {};
    return { status: 'down', ms: Date.now() - started, reason, ...details };
  }
}
