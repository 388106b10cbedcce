/** One price level of a book: a decimal price in dollars per contract and the quantity resting there. */
export interface BookLevelView {
  price: string;
  quantity: string;
}

/** A venue's book in YES terms (bids and asks for YES), and the mid; what the planner plans over. */
export interface OrderBookView {
  venueMarketId: string;
  bids: BookLevelView[];
  asks: BookLevelView[];
  mid: string | null;
  /**
   * The venue's time of the book's last change, where the venue knows it (a simulated venue; a live
   * venue's feed, core/venues/bookFeed.ts); absent for a book read just now from a venue that does
   * not say.
   */
  asOf?: Date;
  /** True for a fed book not known to be current, answered only when the venue cannot be read. */
  stale?: boolean;
}
