/**
 * Load generation with autocannon's programmatic API, in the calling process (no worker threads,
 * pipelining 1), as ONE continuous run per target: a warm-up whose responses are discarded, then
 * the measured window, on the same connections.
 *
 * Why one run and an adaptive warm-up (both measured on this 2-core machine, see README):
 *  - A CPU-saturated Node server accepts new connections late: with 50 fresh connections the last
 *    ones got their first answer 2-3.5 s after the first ones. Restarting autocannon between warm-up
 *    and measurement would put that connection-setup stall into the measured p99.
 *  - The gateway keeps getting faster for ~10-15 s of load (JIT): ~270 req/s in the first seconds,
 *    ~600 req/s after ~5,000 requests. So the warm-up lasts at least `warmupSeconds`, until every
 *    connection has been answered and at least `warmupRequests` responses have come back, and at
 *    most `warmupMaxSeconds`.
 *
 * Latencies come from autocannon's per-response event as floats (its own histogram keeps whole
 * milliseconds, too coarse for sub-millisecond baselines); only responses completed inside the
 * measured window count.
 */
import autocannon from 'autocannon';
import { onCleanup } from './support';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Minimum warm-up. */
  warmupSeconds: number;
  /** Warm-up lasts until at least this many responses (JIT); 0 for a pure time-based warm-up. */
  warmupRequests?: number;
  /** Warm-up never lasts longer than this. */
  warmupMaxSeconds?: number;
  /** Length of the measured window. */
  seconds: number;
  /** Every response body must equal this; others are counted as mismatches. */
  expectBody?: string;
  /**
   * Instead of a GET of `url` with `headers`: a request built anew before each send (e.g. a POST
   * with its own Idempotency-Key) and a callback with each answer's status and body. autocannon
   * calls `onResponse` with the context that `setupRequest` was given for the request answered
   * (pipelining 1), over the whole run, warm-up included.
   */
  request?: {
    method: string;
    setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
    onResponse: (status: number, body: string, context: Record<string, unknown>) => void;
  };
  /** Called synchronously when the measured window opens and closes (CPU accounting). */
  onWindowStart?: () => void;
  onWindowEnd?: () => void;
  /** When this resolves (e.g. a server died), the load stops and measure() rejects with its message. */
  abort?: Promise<string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Responses completed inside the measured window. */
  responses: number;
  /** Non-2xx responses inside the window (whole run in statusCodes). */
  non2xx: number;
  warmup: { seconds: number; responses: number; non2xx: number };
  /** Status codes over the whole run, warm-up included. */
  statusCodes: Record<string, number>;
  /** Connection errors, timeouts and body mismatches over the whole run. */
  errors: number;
  timeouts: number;
  mismatches: number;
  seconds: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function measure(options: LoadOptions): Promise<LoadResult> {
  const warmupRequests = options.warmupRequests ?? 0;
  const warmupMax = Math.max(options.warmupSeconds, options.warmupMaxSeconds ?? options.warmupSeconds);
  return new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 16);
    let count = 0;
    let non2xx = 0;
    let warmupResponses = 0;
    let warmupNon2xx = 0;
    const answered = new Set<unknown>();
    const started = performance.now();
    let windowStart = 0;
    let windowEnd = 0;
    let phase: 'warmup' | 'measure' | 'done' = 'warmup';
    let aborted = false;
    let abortReason = 'the benchmark is shutting down';
    let windowTimer: NodeJS.Timeout | undefined;

    const openWindow = () => {
      phase = 'measure';
      windowStart = performance.now();
      options.onWindowStart?.();
      windowTimer = setTimeout(closeWindow, options.seconds * 1000);
    };
    const closeWindow = () => {
      if (phase !== 'measure') return;
      phase = 'done';
      windowEnd = performance.now();
      options.onWindowEnd?.();
      instance.stop();
    };
    // The cap: even if the warm-up criteria are never met (a very slow target).
    const capTimer = setTimeout(() => {
      if (phase === 'warmup') openWindow();
    }, warmupMax * 1000);

    const instance = autocannon(
      {
        url: options.url,
        headers: options.headers,
        connections: options.connections,
        pipelining: 1,
        // A safety net only: the run is stopped when the measured window closes.
        duration: warmupMax + options.seconds + 30,
        timeout: 10,
        expectBody: options.expectBody,
        ...(options.request ? { requests: [options.request] } : {}),
      } as autocannon.Options,
      (error: unknown, result: autocannon.Result) => {
        clearTimeout(capTimer);
        clearTimeout(windowTimer);
        stopOnCleanup.cancel();
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        if (aborted) return reject(new Error(`load against ${options.url} stopped: ${abortReason}`));
        if (phase !== 'done') return reject(new Error(`load against ${options.url} ended before the measured window closed`));
        const seconds = (windowEnd - windowStart) / 1000;
        const sorted = latencies.slice(0, count).sort();
        let sum = 0;
        for (const value of sorted) sum += value;
        const statusCodes: Record<string, number> = {};
        for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
        resolve({
          requestsPerSecond: Math.round((count - non2xx) / seconds),
          latencyMs: {
            p50: round(percentile(sorted, 50)),
            p90: round(percentile(sorted, 90)),
            p99: round(percentile(sorted, 99)),
            max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
            mean: round(count ? sum / count : NaN),
          },
          responses: count,
          non2xx,
          warmup: { seconds: round((windowStart - started) / 1000), responses: warmupResponses, non2xx: warmupNon2xx },
          statusCodes,
          errors: result.errors,
          timeouts: result.timeouts,
          mismatches: result.mismatches,
          seconds: round(seconds),
        });
      },
    );

    // Ctrl-C: stop the load first, so that the servers can close their connections and stop.
    const stopOnCleanup = onCleanup(`stop load on ${options.url}`, () => {
      aborted = true;
      phase = 'done';
      instance.stop();
    });

    void options.abort?.then((reason) => {
      if (phase === 'done') return;
      aborted = true;
      abortReason = reason;
      phase = 'done';
      instance.stop();
    });

    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      const bad = statusCode < 200 || statusCode > 299;
      if (phase === 'warmup') {
        warmupResponses++;
        if (bad) warmupNon2xx++;
        answered.add(client);
        if (
          answered.size >= options.connections &&
          warmupResponses >= warmupRequests &&
          performance.now() - started >= options.warmupSeconds * 1000
        ) {
          openWindow();
        }
        return;
      }
      if (phase !== 'measure') return;
      if (bad) non2xx++;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  });
}
