/**
 * Faults of Kalshi's public market-data feed that a test can inject (the control API and the
 * server's methods drive them; marketDataFeed.ts obeys them). Dropping every connection is the
 * fake's existing WebSocket fault (`dropWebSockets`, faults.ts), not repeated here.
 *
 * - Sequence gap: the next `orderbook_delta` of a market, on every subscription that carries that
 *   market, takes a `seq` number without being delivered (the change is lost: the client's book is
 *   wrong from there on), or, with `dropDelta: false`, is delivered with one `seq` number skipped.
 *   Either way the next frame shows the gap. Kalshi's answer to a gap is to resubscribe (or ask
 *   `get_snapshot`) for a fresh `orderbook_snapshot`: "Sequential number that should be checked if
 *   you want to guarantee you received all the messages. Used for snapshot/delta consistency"
 *   (asyncapi.yaml sequenceNumber).
 * - Frozen feed: while a market (or every market) is frozen, nothing of it is sent on
 *   `orderbook_delta`, `ticker` or `trade` (no snapshot either, also not on a new subscription):
 *   the socket stays open, commands are answered, server pings go out and client pings are
 *   answered. What happens meanwhile is lost and takes no `seq` number, so when the feed thaws the
 *   deltas carry on without a visible gap and the client's book is silently stale: a client must
 *   notice the silence itself and resubscribe ("Feeds that freeze while the socket still says
 *   open", VENUES.md). Private and lifecycle channels are not affected.
 */

export class MarketDataFaults {
  private allFrozen = false;
  private readonly frozenMarkets = new Set<string>();
  private readonly gaps = new Map<string, { readonly dropDelta: boolean }>();

  /** Freezes one market's feed, or every market's when `ticker` is undefined. */
  freeze(ticker?: string): void {
    if (ticker === undefined) this.allFrozen = true;
    else this.frozenMarkets.add(ticker);
  }

  /** Thaws one market (it stays frozen while everything is), or everything when `ticker` is undefined. */
  thaw(ticker?: string): void {
    if (ticker !== undefined) {
      this.frozenMarkets.delete(ticker);
      return;
    }
    this.allFrozen = false;
    this.frozenMarkets.clear();
  }

  isFrozen(ticker: string): boolean {
    return this.allFrozen || this.frozenMarkets.has(ticker);
  }

  /** The next orderbook_delta of `ticker` skips a seq number (and is lost unless `dropDelta` is false). */
  injectGap(ticker: string, dropDelta = true): void {
    this.gaps.set(ticker, { dropDelta });
  }

  /** The gap waiting for this market's next delta, consumed. */
  takeGap(ticker: string): { readonly dropDelta: boolean } | undefined {
    const gap = this.gaps.get(ticker);
    this.gaps.delete(ticker);
    return gap;
  }

  clear(): void {
    this.thaw();
    this.gaps.clear();
  }
}
