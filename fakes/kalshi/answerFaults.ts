/**
 * Kalshi's own answer fault: a V2 cancel or amend that acts on the right order but answers about
 * another one. Kalshi announced it (changelog 2026-05-21, "V2 cancel/amend response correctness"):
 * "In certain uncommon cases, responses from DELETE /trade-api/v2/portfolio/events/orders/{order_id}
 * and POST /trade-api/v2/portfolio/events/orders/{order_id}/amend do not describe the order that was
 * cancelled or amended ... The cancel or amend itself executes correctly against the intended order;
 * only the response body is affected." Our notes: trust reads, not that body.
 *
 * A rule (method and path prefix optional, as the HTTP faults of ../faults.ts) is consumed only by a
 * successful single cancel or amend it matches; the exchange then rewrites that answer's order_id,
 * client_order_id and quantities to another order's (Exchange.misdescribe). The HTTP faults (lost
 * answer, delay, 5xx, 429) stay in ../faults.ts and apply to every route, these included.
 */
export interface WrongOrderAnswerRule {
  readonly method?: string;
  /** Matched against the path from the root, e.g. "/trade-api/v2/portfolio/events/orders". */
  readonly pathPrefix?: string;
  /** How many answers to rewrite; default 1, Infinity until cleared. */
  readonly times?: number;
}

export class WrongOrderAnswers {
  private rules: { rule: WrongOrderAnswerRule; remaining: number }[] = [];

  inject(rule: WrongOrderAnswerRule): void {
    this.rules.push({ rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** Whether this (misdescribable, successful) answer is to be rewritten, consuming one use of the first matching rule. */
  take(method: string, fullPath: string): boolean {
    const active = this.rules.find(
      (a) =>
        a.remaining > 0 &&
        (a.rule.method === undefined || a.rule.method.toUpperCase() === method) &&
        (a.rule.pathPrefix === undefined || fullPath.startsWith(a.rule.pathPrefix)),
    );
    if (active === undefined) return false;
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules = this.rules.filter((a) => a !== active);
    return true;
  }
}
