/**
 * Faults a test can inject into one fake instance (every venue fake: Kalshi, Polymarket). HTTP faults are rules matched in
 * order against each request (method and path prefix, both optional) and consumed
 * `times` times (default once; Infinity for "until cleared").
 *
 * - accept_then_drop: the request is fully processed (an order IS placed), then the
 *   connection is destroyed before any answer is written.
 * - delay: the answer is held `ms`; with `placeBeforeDelay` the request is processed
 *   first and the answer held (the order exists while the client waits), without it
 *   the request waits first and is processed afterwards (a client that gives up early
 *   and retries can race its own first request).
 * - server_error: answers `status` (5xx, or 425: Polymarket's matching engine restarting,
 *   docs.polymarket.com "Matching Engine Restarts") without processing the request.
 * - rate_limit: answers the bare 429 without processing (a 429 storm with `times`).
 *
 * WebSocket faults are states: `dropWebSockets()` terminates every open socket;
 * `freezeWebSockets(true)` keeps sockets open but sends nothing (no data, no pings, no
 * pongs) until unfrozen.
 */
export type HttpFault =
  | { readonly kind: 'accept_then_drop' }
  | { readonly kind: 'delay'; readonly ms: number; readonly placeBeforeDelay: boolean }
  | { readonly kind: 'server_error'; readonly status: number }
  | { readonly kind: 'rate_limit' };

export interface FaultRule {
  readonly fault: HttpFault;
  readonly method?: string;
  /** Matched against the path without query, e.g. "/trade-api/v2/portfolio/events/orders". */
  readonly pathPrefix?: string;
  /** How many matching requests the rule applies to; default 1. */
  readonly times?: number;
}

interface ActiveRule {
  readonly rule: FaultRule;
  remaining: number;
}

const isServerErrorStatus = (status: number) => status === 425 || (status >= 500 && status <= 599);

export class FaultPlan {
  private rules: ActiveRule[] = [];

  inject(rule: FaultRule): void {
    if (rule.fault.kind === 'server_error' && !isServerErrorStatus(rule.fault.status)) {
      throw new RangeError('server_error status must be 5xx or 425');
    }
    this.rules.push({ rule, remaining: rule.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, consuming one use of the first matching rule. */
  take(method: string, path: string): HttpFault | undefined {
    const active = this.rules.find(
      (a) =>
        a.remaining > 0 &&
        (a.rule.method === undefined || a.rule.method.toUpperCase() === method) &&
        (a.rule.pathPrefix === undefined || path.startsWith(a.rule.pathPrefix)),
    );
    if (active === undefined) return undefined;
    active.remaining -= 1;
    if (active.remaining <= 0) this.rules = this.rules.filter((a) => a !== active);
    return active.rule.fault;
  }
}

/** A fault as a control API's JSON body names it (`kind`, `ms`, `place_before_delay`, `status`), or why it is not one. */
export function faultFromBody(body: Record<string, unknown>): HttpFault | string {
  switch (body.kind) {
    case 'accept_then_drop':
      return { kind: 'accept_then_drop' };
    case 'delay':
      if (typeof body.ms !== 'number' || body.ms < 0) return 'delay needs ms >= 0';
      return { kind: 'delay', ms: body.ms, placeBeforeDelay: body.place_before_delay === true };
    case 'server_error':
      if (typeof body.status !== 'number' || !isServerErrorStatus(body.status)) return 'server_error needs a 5xx or 425 status';
      return { kind: 'server_error', status: body.status };
    case 'rate_limit':
      return { kind: 'rate_limit' };
    default:
      return 'kind must be accept_then_drop, delay, server_error or rate_limit';
  }
}
