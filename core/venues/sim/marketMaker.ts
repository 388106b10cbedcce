/**
 * Deterministic seeded liquidity for one simulated market: a market maker that quotes a ladder of
 * YES bids below and YES asks above its fair value, and re-quotes after clients trade with it.
 *
 * - Ladder: `levels` prices each side, `levelSpacing` apart (1 cent by default, rounded up to a
 *   multiple of the market's tick). The best bid is the highest tick at least one spacing below fair
 *   value, the best ask the lowest tick at least one spacing above, so the quotes never cross.
 * - Sizes: level k (0 = best) targets baseSize + k × sizeIncrement contracts or shares, jittered by
 *   ±20% from the seeded stream once, when the market opens. A fresh level is split into 1–3 orders.
 * - Passive only: a quote that would cross a resting client order is skipped, so the market maker
 *   never takes liquidity and never causes a client fill by itself.
 * - Refresh: after a client order trades against its quotes, the fair value moves one market tick
 *   toward the trade (up when the client bought YES, down when it sold) and the ladder is reconciled:
 *   quotes at prices off the new ladder are canceled, and levels below target are topped up by one
 *   order at the back of the queue (quotes still on the ladder keep their place).
 *
 * Everything comes from the seed and the operations: no clock, no Math.random.
 */
import { Decimal } from '../../domain/decimals';
import { PRICE_TICKS_PER_DOLLAR, type OrderBook, type RestingOrderView } from '../../domain/matching';
import { randomInt, seededStream } from './seededRandom';
import type { SimMarket } from './simMarketRules';

export interface MarketMakerOptions {
  /** Price levels quoted on each side. Default 8. */
  readonly levels?: number;
  /** Distance between levels, in dollars. Default "0.01". */
  readonly levelSpacing?: string;
  /** Target size of the best level, in whole contracts or shares. Default 500. */
  readonly baseSize?: number;
  /** Extra size per level further from fair value, in whole contracts or shares. Default 250. */
  readonly sizeIncrement?: number;
}

export const DEFAULT_MARKET_MAKER_OPTIONS: Required<MarketMakerOptions> = Object.freeze({
  levels: 8,
  levelSpacing: '0.01',
  baseSize: 500,
  sizeIncrement: 250,
});

/** Every market-maker order id starts with this; client order ids never do. */
export const MARKET_MAKER_ORDER_PREFIX = 'mm:';

export function isMarketMakerOrderId(orderId: string): boolean {
  return orderId.startsWith(MARKET_MAKER_ORDER_PREFIX);
}

type QuoteSide = 'bid' | 'ask';

interface LadderLevel {
  readonly side: QuoteSide;
  readonly priceTicks: number;
  readonly targetUnits: number;
}

const SIZE_JITTER_PERCENT = 20;
const MAX_ORDERS_PER_FRESH_LEVEL = 3;

export class MarketMaker {
  private fairTicks: number;
  private readonly random: () => number;
  private readonly spacingTicks: number;
  private readonly bidTargets: number[];
  private readonly askTargets: number[];
  private orderSequence = 0;

  constructor(
    private readonly market: SimMarket,
    seed: number,
    venueName: string,
    options: MarketMakerOptions = {},
  ) {
    const { levels, levelSpacing, baseSize, sizeIncrement } = { ...DEFAULT_MARKET_MAKER_OPTIONS, ...options };
    if (!Number.isInteger(levels) || levels < 1 || levels > 100) throw new RangeError(`levels ${levels} must be 1..100`);
    if (!Number.isSafeInteger(baseSize) || baseSize < 1) throw new RangeError(`baseSize ${baseSize} must be a whole number >= 1`);
    if (!Number.isSafeInteger(sizeIncrement) || sizeIncrement < 0) {
      throw new RangeError(`sizeIncrement ${sizeIncrement} must be a whole number >= 0`);
    }
    const { rules } = market;
    const spacing = new Decimal(levelSpacing).times(PRICE_TICKS_PER_DOLLAR);
    if (!spacing.isInteger() || spacing.lte(0) || spacing.gte(PRICE_TICKS_PER_DOLLAR / 2)) {
      throw new RangeError(`levelSpacing ${levelSpacing} must be a positive price below 0.5 in steps of 0.0001`);
    }
    this.spacingTicks = ceilToMultiple(spacing.toNumber(), rules.tickSizeTicks);
    this.fairTicks = this.clampFair(market.fairValueTicks);
    this.random = seededStream(seed, `${venueName}/${market.venueMarketId}`);

    this.bidTargets = [];
    this.askTargets = [];
    for (let k = 0; k < levels; k++) {
      this.bidTargets.push(this.drawTargetUnits(baseSize + k * sizeIncrement));
      this.askTargets.push(this.drawTargetUnits(baseSize + k * sizeIncrement));
    }
  }

  /** Current fair value of YES, in ticks of $0.0001. */
  get fairValueTicks(): number {
    return this.fairTicks;
  }

  /** Brings the book's market-maker quotes to the ladder around the current fair value. */
  quote(book: OrderBook): void {
    const ladder = this.ladder();
    const onLadder = new Set(ladder.map((level) => levelKey(level.side, level.priceTicks)));
    const quoted = new Map<string, number>();
    for (const order of this.ownOrders(book)) {
      const key = levelKey(order.bookSide, order.yesPriceTicks);
      if (!onLadder.has(key)) {
        book.cancel(order.orderId);
        continue;
      }
      quoted.set(key, (quoted.get(key) ?? 0) + order.remainingQuantity);
    }
    for (const level of ladder) {
      const have = quoted.get(levelKey(level.side, level.priceTicks)) ?? 0;
      if (have >= level.targetUnits || this.wouldCross(book, level)) continue;
      const parts = have === 0 ? this.splitFreshLevel(level.targetUnits) : [level.targetUnits - have];
      for (const units of parts) this.post(book, level, units);
    }
  }

  /** After a client traded against the quotes: move fair value a tick toward the trade, then re-quote. */
  refreshAfterClientTrade(book: OrderBook, clientBoughtYes: boolean): void {
    const step = this.market.rules.tickSizeTicks;
    this.fairTicks = this.clampFair(this.fairTicks + (clientBoughtYes ? step : -step));
    this.quote(book);
  }

  /** Cancels every market-maker quote in the book (used before restoring client orders). */
  withdraw(book: OrderBook): void {
    for (const order of this.ownOrders(book)) book.cancel(order.orderId);
  }

  private ladder(): LadderLevel[] {
    const { tickSizeTicks: tick, minPriceTicks, maxPriceTicks } = this.market.rules;
    const bestBid = floorToMultiple(this.fairTicks - this.spacingTicks, tick);
    const bestAsk = ceilToMultiple(this.fairTicks + this.spacingTicks, tick);
    const levels: LadderLevel[] = [];
    this.bidTargets.forEach((targetUnits, k) => {
      const priceTicks = bestBid - k * this.spacingTicks;
      if (priceTicks >= minPriceTicks) levels.push({ side: 'bid', priceTicks, targetUnits });
    });
    this.askTargets.forEach((targetUnits, k) => {
      const priceTicks = bestAsk + k * this.spacingTicks;
      if (priceTicks <= maxPriceTicks) levels.push({ side: 'ask', priceTicks, targetUnits });
    });
    return levels;
  }

  /** Keeps at least one ladder level inside the venue's price range on each side. */
  private clampFair(ticks: number): number {
    const { minPriceTicks, maxPriceTicks } = this.market.rules;
    return Math.min(Math.max(ticks, minPriceTicks + this.spacingTicks), maxPriceTicks - this.spacingTicks);
  }

  private drawTargetUnits(nominalWhole: number): number {
    const percent = 100 - SIZE_JITTER_PERCENT + randomInt(this.random, 0, 2 * SIZE_JITTER_PERCENT);
    const whole = Math.max(1, Math.floor((nominalWhole * percent) / 100));
    return whole * this.market.rules.unitsPerWhole;
  }

  /** A fresh level in 1–3 orders of whole contracts or shares, the first taking any remainder. */
  private splitFreshLevel(targetUnits: number): number[] {
    const perWhole = this.market.rules.unitsPerWhole;
    const whole = Math.floor(targetUnits / perWhole);
    const count = Math.min(randomInt(this.random, 1, MAX_ORDERS_PER_FRESH_LEVEL), Math.max(1, whole));
    const part = Math.floor(whole / count) * perWhole;
    const parts = new Array<number>(count).fill(part);
    parts[0] = targetUnits - part * (count - 1);
    return parts;
  }

  private wouldCross(book: OrderBook, level: LadderLevel): boolean {
    if (level.side === 'bid') {
      const ask = book.bestAskTicks();
      return ask !== null && ask <= level.priceTicks;
    }
    const bid = book.bestBidTicks();
    return bid !== null && bid >= level.priceTicks;
  }

  private post(book: OrderBook, level: LadderLevel, units: number): void {
    const orderId = `${MARKET_MAKER_ORDER_PREFIX}${this.market.venueMarketId}:${++this.orderSequence}`;
    const result = book.place({
      type: 'limit',
      orderId,
      side: 'yes',
      action: level.side === 'bid' ? 'buy' : 'sell',
      priceTicks: level.priceTicks,
      quantity: units,
      timeInForce: 'GTC',
    });
    if (result.status !== 'resting' || result.fills.length > 0) {
      throw new Error(`market maker quote ${orderId} did not rest passively (${result.status})`);
    }
  }

  private ownOrders(book: OrderBook): RestingOrderView[] {
    return book.restingOrders().filter((order) => isMarketMakerOrderId(order.orderId));
  }
}

function levelKey(side: QuoteSide, priceTicks: number): string {
  return `${side}:${priceTicks}`;
}

function floorToMultiple(value: number, step: number): number {
  return Math.floor(value / step) * step;
}

function ceilToMultiple(value: number, step: number): number {
  return Math.ceil(value / step) * step;
}
