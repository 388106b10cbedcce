import type { OrderBookView } from '../domain/orderBookView';

/**
 * A live venue's books kept from its public WebSocket feed (docs/market-data.md, "Live books"):
 * one book per followed market, in YES terms, shared by every reader of this core. What every
 * venue's feed promises, whatever its protocol:
 *
 * - a followed market's book is the venue's snapshot with every later change applied in order;
 * - a change that cannot be applied in order (Kalshi: a `seq` that skips; Polymarket: a book hash
 *   that does not match the book after the change; a reconnect) makes the book `stale` at once,
 *   until a fresh snapshot replaces it (asked for at once);
 * - a feed that goes silent is checked: after `quietMs` without a message for a market, its book is
 *   compared with the venue's REST book; equal, it is fresh (a quiet market); different, it is
 *   `stale` (a frozen feed), replaced by the REST book, and the market is subscribed again;
 * - `asOf` is the venue's time of the last message applied (or of the snapshot), never the time
 *   of a read;
 * - nothing here is served as fresh that is not: a reader of a stale book reads the venue itself.
 */
export interface FedBook {
  /** Every level the feed knows, best first on both sides; the mid as the REST book gives it. */
  readonly book: OrderBookView;
  readonly asOf: Date;
  readonly stale: boolean;
}

export interface BookFeed {
  /**
   * Follows the market from now on (subscribes when not yet followed; idempotent and cheap, called
   * on every read). A market not asked about for the feed's idle time is unsubscribed.
   */
  follow(venueMarketId: string): void;
  /** The kept book; undefined when the market is not followed or its first snapshot has not arrived. */
  current(venueMarketId: string): FedBook | undefined;
  /** Called after each change of a followed market's book (a change applied, a snapshot, staleness). Returns the remover. */
  onChange(listener: (venueMarketId: string) => void): () => void;
  close(): Promise<void>;
}

/** A feed's `onChange` listeners: each told of a change in turn; one that throws harms neither the feed nor the others. */
export class BookChangeListeners {
  private readonly listeners = new Set<(venueMarketId: string) => void>();

  /** Adds a listener (the same function twice counts twice); answers its remover. */
  add(listener: (venueMarketId: string) => void): () => void {
    const own = (id: string) => listener(id);
    this.listeners.add(own);
    return () => void this.listeners.delete(own);
  }

  tell(venueMarketId: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(venueMarketId);
      } catch {
        // A reader's failure is its own: the feed carries on.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
