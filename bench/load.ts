/**
 * Load generation with autocannon's programmatic API, in the calling process (no worker threads):
 * a warm-up run whose figures are discarded, then the measured run. Latencies are taken from
 * autocannon's per-response event as floats (its own histogram keeps whole milliseconds, too
 * coarse for sub-millisecond baselines).
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Every response body must equal this; others are counted as mismatches. */
  expectBody?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  responses: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  mismatches: number;
  seconds: number;
  /** autocannon's own summary, for cross-checking (its latency percentiles are whole ms). */
  autocannon: { requestsPerSecondAverage: number; latencyP50: number; latencyP99: number };
}

interface Measured {
  result: autocannon.Result;
  latencies: Float64Array;
  count: number;
  non2xx: number;
  seconds: number;
}

function fire(options: LoadOptions, seconds: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 18);
    let count = 0;
    let non2xx = 0;
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: options.url,
        headers: options.headers,
        connections: options.connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        expectBody: options.expectBody,
      },
      (error: unknown, result: autocannon.Result) => {
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve({ result, latencies: latencies.subarray(0, count), count, non2xx, seconds: elapsed });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode > 299) non2xx++;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
    });
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function measure(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await fire(options, options.warmupSeconds);
  const { result, latencies, count, non2xx, seconds } = await fire(options, options.seconds);
  const sorted = latencies.slice().sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return {
    requestsPerSecond: Math.round((count - non2xx) / seconds),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
      mean: round(count ? sum / count : NaN),
    },
    responses: count,
    non2xx: Math.max(non2xx, result.non2xx),
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    seconds: round(seconds),
    autocannon: { requestsPerSecondAverage: result.requests.average, latencyP50: result.latency.p50, latencyP99: result.latency.p99 },
  };
}
