/**
 * Micro-benchmark of the order book on a realistic mix, single-threaded:
 * ~50% limit orders that rest near the touch, ~35% cancels of live orders,
 * ~15% marketable orders that match (IOC limits and market orders), over all four
 * YES/NO × buy/sell combinations and a drifting mid price.
 *
 * The operation script is generated (and its order ids built) before timing, by a
 * seeded PRNG driving a scratch book, so the timed loop replays exactly the same
 * operations on a fresh book and measures only the book.
 *
 * Run: npx tsx bench/matchingEngine.ts
 */
import { OrderBook } from '../core/domain/matching/orderBook';
import type { OrderRequest } from '../core/domain/matching/types';
import { mulberry32 as seededRandom } from '../core/venues/sim/seededRandom';

type Operation = { kind: 'place'; request: OrderRequest } | { kind: 'cancel'; orderId: string };

/** Seed operations build a deep book before timing; only the main operations are timed. */
interface Script {
  seed: Operation[];
  main: Operation[];
}

/** Resting orders the seed builds and the main mix hovers around. */
const TARGET_DEPTH = 5_000;

export interface MatchingEngineBenchResult {
  opsPerSecond: number;
  operations: number;
  seconds: number;
}

export interface MatchingEngineBenchOptions {
  /** Operations in one generated script (replayed until minSeconds have passed). */
  scriptLength?: number;
  /** Minimum measured time, after the warm-up. */
  minSeconds?: number;
  seed?: number;
}


/** Polymarket-style 0.01 tick (100 engine ticks), prices kept within 0.05..0.95. */
const TICK = 100;

function buildScript(length: number, seed: number): Script {
  const random = seededRandom(seed);
  const scratch = new OrderBook('bench-script');
  const live: string[] = [];
  const livePosition = new Map<string, number>();
  const seedOps: Operation[] = [];
  let ops: Operation[] = seedOps;
  let nextId = 0;
  let midTicks = 50 * TICK;

  const forget = (id: string): void => {
    const at = livePosition.get(id);
    if (at === undefined) return;
    const last = live.pop()!;
    if (last !== id) {
      live[at] = last;
      livePosition.set(last, at);
    }
    livePosition.delete(id);
  };
  const remember = (id: string): void => {
    livePosition.set(id, live.length);
    live.push(id);
  };

  const sideAndAction = (yesBid: boolean): { side: 'yes' | 'no'; action: 'buy' | 'sell' } => {
    const viaNo = random() < 0.5;
    if (yesBid) return viaNo ? { side: 'no', action: 'sell' } : { side: 'yes', action: 'buy' };
    return viaNo ? { side: 'no', action: 'buy' } : { side: 'yes', action: 'sell' };
  };
  const ownPrice = (side: 'yes' | 'no', yesTicks: number): number => (side === 'yes' ? yesTicks : 10_000 - yesTicks);

  const main: Operation[] = [];
  const addResting = (): Operation => {
    // Resting: a GTC limit one to ten ticks behind the mid on its own side.
    const yesBid = random() < 0.5;
    const { side, action } = sideAndAction(yesBid);
    const offset = (1 + Math.floor(random() * 10)) * TICK;
    const yesPrice = yesBid ? midTicks - offset : midTicks + offset;
    const orderId = `o${nextId++}`;
    const request: OrderRequest = {
      type: 'limit',
      orderId,
      side,
      action,
      priceTicks: ownPrice(side, yesPrice),
      quantity: 1 + Math.floor(random() * 100),
      timeInForce: 'GTC',
    };
    const result = scratch.place(request);
    for (const fill of result.fills) {
      if (fill.liquidity === 'maker' && fill.remainingQuantity === 0) forget(fill.orderId);
    }
    if (result.status === 'resting') remember(orderId);
    return { kind: 'place', request };
  };
  while (live.length < TARGET_DEPTH) seedOps.push(addResting());
  ops = main;

  while (ops.length < length) {
    if (random() < 0.02) midTicks = Math.min(80 * TICK, Math.max(20 * TICK, midTicks + (random() < 0.5 ? -TICK : TICK)));
    const roll = random();
    let op: Operation;
    if (roll < 0.35 && live.length > 0) {
      const orderId = live[Math.floor(random() * live.length)]!;
      op = { kind: 'cancel', orderId };
      scratch.cancel(orderId);
      forget(orderId);
    } else if (roll < 0.5) {
      // Marketable: crosses the spread for one to a few resting orders' worth.
      const yesBid = random() < 0.5;
      const { side, action } = sideAndAction(yesBid);
      // About one resting order's worth on average, more when the book is deeper than
      // the target and less when shallower, so depth stays near TARGET_DEPTH.
      const scale = live.length > TARGET_DEPTH ? 150 : 40;
      const quantity = 1 + Math.floor(random() * scale);
      const orderId = `o${nextId++}`;
      let request: OrderRequest;
      if (random() < 0.5) {
        const yesLimit = yesBid ? midTicks + 3 * TICK : midTicks - 3 * TICK;
        request = { type: 'limit', orderId, side, action, priceTicks: ownPrice(side, yesLimit), quantity, timeInForce: 'IOC' };
      } else {
        request = { type: 'market', orderId, side, action, quantity };
      }
      op = { kind: 'place', request };
      for (const fill of scratch.place(request).fills) {
        if (fill.liquidity === 'maker' && fill.remainingQuantity === 0) forget(fill.orderId);
      }
    } else {
      op = addResting();
    }
    ops.push(op);
  }
  return { seed: seedOps, main };
}

function seededBook(script: Script): OrderBook {
  const book = new OrderBook('bench');
  for (const op of script.seed) if (op.kind === 'place') book.place(op.request);
  return book;
}

/** Replays the main operations on a seeded book; returns a checksum so the work cannot be optimised away. */
function replay(book: OrderBook, ops: readonly Operation[]): number {
  let checksum = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op.kind === 'place') checksum += book.place(op.request).fills.length;
    else if (book.cancel(op.orderId).ok) checksum++;
  }
  return checksum + book.restingOrderCount;
}

export interface MixStats {
  restingAdds: number;
  cancels: number;
  marketable: number;
  marketableThatMatched: number;
  matches: number;
  averageRestingOrders: number;
}

/** What the script really does when replayed once (reported, not timed). */
function describeMix(script: Script): MixStats {
  const book = seededBook(script);
  const ops = script.main;
  const stats: MixStats = { restingAdds: 0, cancels: 0, marketable: 0, marketableThatMatched: 0, matches: 0, averageRestingOrders: 0 };
  let restingSum = 0;
  for (const op of ops) {
    if (op.kind === 'cancel') {
      if (book.cancel(op.orderId).ok) stats.cancels++;
    } else {
      const result = book.place(op.request);
      stats.matches += result.fills.length / 2;
      if (op.request.type === 'limit' && op.request.timeInForce === 'GTC') stats.restingAdds++;
      else {
        stats.marketable++;
        if (result.filledQuantity > 0) stats.marketableThatMatched++;
      }
    }
    restingSum += book.restingOrderCount;
  }
  stats.averageRestingOrders = Math.round(restingSum / ops.length);
  return stats;
}

export async function runMatchingEngineBench(options: MatchingEngineBenchOptions = {}): Promise<MatchingEngineBenchResult> {
  const scriptLength = options.scriptLength ?? 1_000_000;
  const minSeconds = options.minSeconds ?? 1;
  const script = buildScript(scriptLength, options.seed ?? 42);

  // Warm-up: let the JIT settle on the hot path before measuring.
  const warmUntil = process.hrtime.bigint() + 500_000_000n;
  while (process.hrtime.bigint() < warmUntil) replay(seededBook(script), script.main);

  let operations = 0;
  let checksum = 0;
  let elapsedNs = 0n;
  do {
    const book = seededBook(script); // untimed
    const start = process.hrtime.bigint();
    checksum += replay(book, script.main);
    elapsedNs += process.hrtime.bigint() - start;
    operations += script.main.length;
  } while (Number(elapsedNs) / 1e9 < minSeconds);
  if (checksum < 0) throw new Error('unreachable: keeps the checksum live');

  const seconds = Number(elapsedNs) / 1e9;
  return { opsPerSecond: Math.round(operations / seconds), operations, seconds };
}

if (require.main === module) {
  const mix = describeMix(buildScript(1_000_000, 42));
  const pct = (n: number): string => `${((100 * n) / 1_000_000).toFixed(1)}%`;
  console.log(
    `mix: ${pct(mix.restingAdds)} GTC adds, ${pct(mix.cancels)} cancels of live orders, ` +
      `${pct(mix.marketable)} marketable (${pct(mix.marketableThatMatched)} matched), ` +
      `${mix.matches.toLocaleString('en-US')} matches per 1M ops, ~${mix.averageRestingOrders} orders resting`,
  );
  void runMatchingEngineBench().then((result) => {
    console.log(
      `matching engine: ${result.opsPerSecond.toLocaleString('en-US')} ops/s ` +
        `(${result.operations.toLocaleString('en-US')} operations in ${result.seconds.toFixed(2)} s; ` +
        `mix ~50% resting adds, ~35% cancels, ~15% marketable)`,
    );
  });
}
