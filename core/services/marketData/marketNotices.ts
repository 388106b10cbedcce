import type { Db } from '../../db/prismaClient';

/** Markets whose id is kept for the notices of their venue's feed (venue and venue market id never change for a market). */
const KEPT = 10_000;

/**
 * What a live venue's feed says moved (a venue and its market id), told as our market's notice
 * (`announce(marketId)`: MARKET_NOTICE_TOPIC, heard by the gateways' market-data streams). The
 * market's id is looked up once and kept; a market not in our catalog is not announced. Never
 * throws: a notice is a hint, the streams also read on their own.
 */
export function marketNotices(db: Db, announce: (marketId: string) => void): (venue: string, venueMarketId: string) => void {
  const ids = new Map<string, string>();
  return (venue, venueMarketId) => {
    const key = `${venue}\u0000${venueMarketId}`;
    const known = ids.get(key);
    if (known !== undefined) {
      announce(known);
      return;
    }
    void db.market
      .findUnique({ where: { venue_venueMarketId: { venue, venueMarketId } }, select: { id: true } })
      .then((market) => {
        if (!market) return; // not in our catalog (yet): looked up again next time
        if (ids.size >= KEPT) ids.clear();
        ids.set(key, market.id);
        announce(market.id);
      })
      .catch(() => undefined);
  };
}
