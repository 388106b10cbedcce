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
}
