import { CORE_BUDGET_HEADER } from '../../contract/endpoints';

/** The longest budget a gateway may give (the configuration's upper bound of CORE_TIMEOUT_MS). */
const MAX_BUDGET_MS = 120_000;
/** What is kept back from the budget for recording the venue's answer and carrying it to the client: a quarter, at most a second. */
const reserveOf = (budgetMs: number) => Math.min(1000, budgetMs / 4);

/**
 * When a request's venue work must end (epoch ms): the gateway's budget for it (CORE_BUDGET_HEADER),
 * else the core's own CORE_TIMEOUT_MS, less a reserve for what comes after the venue's answer.
 * Past it a client is no longer waiting, so nothing is sent that could not be answered by then.
 */
export function requestDeadline(request: { headers: { get(name: string): string | null } }, fallbackBudgetMs: number, now = Date.now()): number {
  const header = request.headers.get(CORE_BUDGET_HEADER);
  const given = header !== null && /^[1-9][0-9]{0,5}$/.test(header) ? Number(header) : Number.NaN;
  const budgetMs = given <= MAX_BUDGET_MS ? given : fallbackBudgetMs;
  return now + budgetMs - reserveOf(budgetMs);
}
