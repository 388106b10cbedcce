/**
 * Differential test: the book against a deliberately naive reference (sort and scan
 * on every operation) over thousands of random operations, comparing every result,
 * every fill, the depth and queue positions.
 */
import { OrderBook } from '../../../core/domain/matching';
import type { BookDepth, FillEvent, OrderAction, OrderRequest, OutcomeSide, PlaceResult } from '../../../core/domain/matching';

interface RefOrder {
  id: string;
  side: OutcomeSide;
  action: OrderAction;
  bid: boolean;
  yes: number;
  remaining: number;
  arrival: number;
}

class ReferenceBook {
  orders: RefOrder[] = [];
  private arrival = 0;
  private matchId = 0;

  place(r: OrderRequest): Pick<PlaceResult, 'status' | 'filledQuantity' | 'restingQuantity' | 'canceledQuantity' | 'fills'> {
    const bid = (r.side === 'yes') === (r.action === 'buy');
    const toYes = (own: number): number => (r.side === 'yes' ? own : 10_000 - own);
    const limitYes =
      r.type === 'limit' ? toYes(r.priceTicks) : r.protectionPriceTicks !== undefined ? toYes(r.protectionPriceTicks) : bid ? 9999 : 1;
    const tif = r.type === 'limit' ? r.timeInForce : (r.timeInForce ?? 'IOC');
    const crossing = (): RefOrder[] =>
      this.orders
        .filter((o) => o.bid !== bid && (bid ? o.yes <= limitYes : o.yes >= limitYes))
        .sort((a, b) => (bid ? a.yes - b.yes : b.yes - a.yes) || a.arrival - b.arrival);
    if (tif === 'FOK' && crossing().reduce((s, o) => s + o.remaining, 0) < r.quantity) {
      return { status: 'canceled', filledQuantity: 0, restingQuantity: 0, canceledQuantity: r.quantity, fills: [] };
    }
    let remaining = r.quantity;
    const fills: FillEvent[] = [];
    for (const maker of crossing()) {
      if (remaining === 0) break;
      const q = Math.min(remaining, maker.remaining);
      remaining -= q;
      maker.remaining -= q;
      const matchId = ++this.matchId;
      const own = (side: OutcomeSide): number => (side === 'yes' ? maker.yes : 10_000 - maker.yes);
      fills.push(
        { matchId, orderId: r.orderId, counterpartyOrderId: maker.id, liquidity: 'taker', side: r.side, action: r.action, priceTicks: own(r.side), yesPriceTicks: maker.yes, quantity: q, remainingQuantity: remaining },
        { matchId, orderId: maker.id, counterpartyOrderId: r.orderId, liquidity: 'maker', side: maker.side, action: maker.action, priceTicks: own(maker.side), yesPriceTicks: maker.yes, quantity: q, remainingQuantity: maker.remaining },
      );
    }
    this.orders = this.orders.filter((o) => o.remaining > 0);
    const filledQuantity = r.quantity - remaining;
    if (remaining === 0) return { status: 'filled', filledQuantity, restingQuantity: 0, canceledQuantity: 0, fills };
    if (r.type === 'limit' && tif === 'GTC') {
      this.orders.push({ id: r.orderId, side: r.side, action: r.action, bid, yes: limitYes, remaining, arrival: ++this.arrival });
      return { status: 'resting', filledQuantity, restingQuantity: remaining, canceledQuantity: 0, fills };
    }
    return { status: 'canceled', filledQuantity, restingQuantity: 0, canceledQuantity: remaining, fills };
  }

  cancel(id: string): number | null {
    const order = this.orders.find((o) => o.id === id);
    if (order === undefined) return null;
    this.orders = this.orders.filter((o) => o !== order);
    return order.remaining;
  }

  depth(): BookDepth {
    const levels = (bid: boolean) => {
      const byPrice = new Map<number, { priceTicks: number; quantity: number; orders: number }>();
      for (const o of this.orders.filter((x) => x.bid === bid)) {
        const level = byPrice.get(o.yes) ?? { priceTicks: o.yes, quantity: 0, orders: 0 };
        level.quantity += o.remaining;
        level.orders++;
        byPrice.set(o.yes, level);
      }
      return [...byPrice.values()].sort((a, b) => (bid ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
    };
    return { bids: levels(true), asks: levels(false) };
  }

  queueAhead(id: string): [number, number] | null {
    const order = this.orders.find((o) => o.id === id);
    if (order === undefined) return null;
    const before = this.orders.filter((o) => o.bid === order.bid && o.yes === order.yes && o.arrival < order.arrival);
    return [before.length, before.reduce((s, o) => s + o.remaining, 0)];
  }
}

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('order book against a naive reference model', () => {
  it.each([1, 2, 3])('agrees on 3,000 random operations (seed %i)', (seed) => {
    const random = seeded(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const book = new OrderBook('m');
    const ref = new ReferenceBook();
    let next = 0;
    for (let i = 0; i < 3000; i++) {
      const roll = random();
      if (roll < 0.3 && ref.orders.length > 0) {
        const id = random() < 0.9 ? pick(ref.orders).id : `gone-${i}`;
        const expected = ref.cancel(id);
        const actual = book.cancel(id);
        expect(actual.ok ? actual.canceledQuantity : null).toEqual(expected);
      } else {
        const side = pick(['yes', 'no'] as const);
        const action = pick(['buy', 'sell'] as const);
        const quantity = 1 + Math.floor(random() * 20);
        const priceTicks = (45 + Math.floor(random() * 11)) * 100; // 0.45..0.55: plenty of crossing
        const orderId = `o${next++}`;
        const request: OrderRequest =
          random() < 0.8
            ? { type: 'limit', orderId, side, action, priceTicks, quantity, timeInForce: pick(['GTC', 'GTC', 'IOC', 'FOK'] as const) }
            : {
                type: 'market',
                orderId,
                side,
                action,
                quantity,
                timeInForce: pick(['IOC', 'FOK'] as const),
                ...(random() < 0.5 ? { protectionPriceTicks: priceTicks } : {}),
              };
        const expected = ref.place(request);
        const { sequence: _sequence, orderId: _id, reason: _reason, ...actual } = book.place(request);
        expect(actual).toEqual(expected);
      }
      expect(book.depth()).toEqual(ref.depth());
      if (ref.orders.length > 0) {
        const probe = pick(ref.orders).id;
        const position = book.queuePosition(probe);
        expect(position === null ? null : [position.ordersAhead, position.quantityAhead]).toEqual(ref.queueAhead(probe));
      }
    }
    expect(book.restingOrderCount).toBe(ref.orders.length);
  });
});
