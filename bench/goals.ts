/**
 * The benchmarks' goals, in one place: each figure `npm run bench` judges, the bounds it must keep
 * and where the goal comes from. The summary table at the end of `npm run bench` (bench/run.ts)
 * prints one row per goal, in this order (issue 12's rows first); bench/README.md refers to this
 * table. A missed goal is reported, not fatal.
 */

/** What a goal bounds: a ratio to a baseline measured in the same run, or a latency in ms. */
export type Measure = 'ratio' | 'p50Ms' | 'p99Ms' | 'medianMs' | 'maxMs' | 'growthMb';

export interface Goal {
  /** The figure, as the summary prints it. */
  figure: string;
  source: string;
  atLeast?: Partial<Record<Measure, number>>;
  atMost?: Partial<Record<Measure, number>>;
}

export const GOALS = {
  orderSequential: { figure: 'POST /v1/orders, 1 connection, sequential', source: 'issue 12', atMost: { p50Ms: 3, p99Ms: 8 } },
  orderOneSubaccount: { figure: 'POST /v1/orders, 50 connections, 1 subaccount', source: 'issue 12', atLeast: { ratio: 0.1 } },
  orderManySubaccounts: { figure: 'POST /v1/orders, 50 connections over 50 subaccounts (IOC)', source: 'issue 12', atLeast: { ratio: 0.3 }, atMost: { p99Ms: 50 } },
  marketUncached: { figure: 'GET /v1/markets/{id} uncached (CATALOG_CACHE_MS=0), 1 process', source: 'issue 12', atLeast: { ratio: 0.1 } },
  marketSplitRedisUncached: { figure: 'GET /v1/markets/{id} uncached, split gateway + core, with Redis', source: 'issue 12', atLeast: { ratio: 0.08 } },
  executionAnalytics: { figure: 'execution analytics over 1,000,000 fills', source: 'issue 12', atMost: { medianMs: 50 } },
  riskStatsWorkingOrders: { figure: 'risk stats with 10,000 working orders', source: 'issue 12', atMost: { medianMs: 20 } },
  marketCached: { figure: 'GET /v1/markets/{id} with the catalog cache, 1 process', source: 'earlier goal (gateway benchmark)', atLeast: { ratio: 0.2 }, atMost: { p99Ms: 10 } },
  riskStatsPositions: { figure: 'risk stats over positions (no working order)', source: 'earlier goal (aggregations)', atMost: { medianMs: 100 } },
  pnlHistory: { figure: 'one-year daily P&L history (daily_pnl rollup)', source: 'earlier goal (aggregations)', atMost: { medianMs: 100 } },
  // Issue 25 (bench/tenantIsolation.ts): `ratio` is the neighbour's GET /v1/markets p99 under the hostile load ÷ quiet; `maxMs` the slowest hostile answer; `growthMb` server RSS after − before.
  tenantIntrospectionBomb: { figure: 'neighbour GET /v1/markets during an introspection bomb (20 x 1,000 aliased __schema; token and cookie)', source: 'issue 25', atMost: { ratio: 2, maxMs: 100, growthMb: 20 } },
  tenantReconnectStorm: { figure: 'neighbour GET /v1/markets during a reconnect storm (240 SSE clients replaying 3,000 events)', source: 'issue 25', atMost: { ratio: 3, growthMb: 50 } },
  // Issue 29 (bench/marketData.ts): the book read against bare node:http at 50 connections; a stream delta from sending the order to each of 1,000 subscribers.
  orderBookRead: { figure: 'GET /v1/markets/{id}/orderbook, 50 connections, 1 process', source: 'issue 29', atLeast: { ratio: 0.15 }, atMost: { p99Ms: 20 } },
  streamDeltaFanOut: { figure: 'market-data stream: a book delta to 1,000 subscribers of one market', source: 'issue 29', atMost: { p99Ms: 50 } },
} as const satisfies Record<string, Goal>;

export type GoalId = keyof typeof GOALS;

const LABEL: Record<Measure, string> = { ratio: 'ratio', p50Ms: 'p50', p99Ms: 'p99', medianMs: 'median', maxMs: 'max', growthMb: 'RSS growth' };
const UNIT: Record<Measure, string> = { ratio: '', p50Ms: ' ms', p99Ms: ' ms', medianMs: ' ms', maxMs: ' ms', growthMb: ' MB' };

/** "ratio >= 0.3, p99 <= 50 ms". */
export function goalText(goal: Goal): string {
  const bounds = [
    ...Object.entries(goal.atLeast ?? {}).map(([m, v]) => `${LABEL[m as Measure]} >= ${v}${UNIT[m as Measure]}`),
    ...Object.entries(goal.atMost ?? {}).map(([m, v]) => `${LABEL[m as Measure]} <= ${v}${UNIT[m as Measure]}`),
  ];
  return bounds.join(', ');
}

/** Whether `measured` keeps every bound of `goal`; a bound whose measure is missing is missed. */
export function goalMet(goal: Goal, measured: Partial<Record<Measure, number>>): boolean {
  const value = (m: string) => measured[m as Measure];
  return (
    Object.entries(goal.atLeast ?? {}).every(([m, bound]) => value(m) !== undefined && value(m)! >= bound) &&
    Object.entries(goal.atMost ?? {}).every(([m, bound]) => value(m) !== undefined && value(m)! <= bound)
  );
}

/** One measured figure for the summary: which goal, what was measured (as text) and whether the goal was met. */
export interface GoalResult {
  id: GoalId;
  measured: string;
  met: boolean;
  /** Cores other processes used during the measured window, when known (a busy machine depresses figures). */
  otherCores?: number;
}

/**
 * The summary table: one row per goal of GOALS, in its order; a goal with no result (its benchmark
 * did not run) is "not measured". Rows measured while other processes used more than
 * `busyCores` are marked.
 */
export function formatGoalSummary(results: GoalResult[], busyCores: number): string {
  const rows = (Object.keys(GOALS) as GoalId[]).map((id) => {
    const result = results.find((r) => r.id === id);
    const busy = result?.otherCores !== undefined && result.otherCores > busyCores ? ` [busy: other processes ${result.otherCores.toFixed(2)} cores]` : '';
    return [GOALS[id].figure, result ? `${result.measured}${busy}` : '-', goalText(GOALS[id]), result ? (result.met ? 'met' : 'MISSED') : 'not measured'];
  });
  const header = ['figure', 'measured', 'goal', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `  ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')}`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
