/**
 * A price level: resting orders in arrival order (FIFO), as an intrusive doubly
 * linked list so a cancel anywhere in the queue is O(1).
 */
import type { OrderAction, OutcomeSide } from './types';
import type { BookSideIndex } from './yesNoComplement';

export class RestingOrder {
  prev: RestingOrder | null = null;
  next: RestingOrder | null = null;

  constructor(
    readonly id: string,
    readonly side: OutcomeSide,
    readonly action: OrderAction,
    readonly bookSide: BookSideIndex,
    readonly yesPriceTicks: number,
    public remaining: number,
    /** The book that owns the order; lets an engine share one id index across books. */
    readonly owner: object,
    readonly level: PriceLevel,
  ) {}
}

export class PriceLevel {
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
  totalQuantity = 0;
  orderCount = 0;

  constructor(readonly yesPriceTicks: number) {}

  append(order: RestingOrder): void {
    order.prev = this.tail;
    order.next = null;
    if (this.tail === null) this.head = order;
    else this.tail.next = order;
    this.tail = order;
    this.totalQuantity += order.remaining;
    this.orderCount++;
  }

  /** Unlinks the order and takes its remaining quantity out of the level total. */
  remove(order: RestingOrder): void {
    const { prev, next } = order;
    if (prev === null) this.head = next;
    else prev.next = next;
    if (next === null) this.tail = prev;
    else next.prev = prev;
    order.prev = null;
    order.next = null;
    this.totalQuantity -= order.remaining;
    this.orderCount--;
  }
}
