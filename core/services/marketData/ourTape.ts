import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../../db/prismaClient';
import { CANDLE_INTERVALS } from '../../../contract/inputBounds';
import type { Candle, CandleInterval } from '../../domain/candles';
import { formatDecimal } from '../../domain/decimals';
import type { PublicTrade, TakerSide } from '../../domain/publicTrades';

/**
 * The public tape of a venue that publishes none of its own: the simulated venues, whose every
 * trade has one of our orders as its taker (their market maker only rests: it never takes). Each
 * taker fill we recorded is one trade (a maker fill is the other half of a trade already counted);
 * a fill reversed by its venue is not a trade. Read in SQL over `fills` (docs/market-data.md).
 */

/** A fill as a trade: its YES price and the outcome its taker bought. */
const TRADE_COLUMNS = Prisma.sql`
  CASE WHEN f.side = 'yes' THEN f.price ELSE 1 - f.price END AS yes_price,
  CASE WHEN (f.side = 'yes') = (f.action = 'buy') THEN 'yes' ELSE 'no' END AS taker_side`;
const IS_TRADE = Prisma.sql`f.is_taker AND f.reversed_at IS NULL`;

/** The contracts traded on the tape of the market whose id `marketId` names (a column of the enclosing query): a scalar subquery. */
export function ourVolumeOf(marketId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(f.quantity), 0) FROM fills f WHERE f.market_id = ${marketId} AND ${IS_TRADE})`;
}

/** Where a page of the tape goes on from: the last trade's time and its fill's recording order. */
export interface TapePosition {
  readonly at: string;
  readonly seq: string;
}

interface TradeRow {
  seq: bigint;
  yes_price: Prisma.Decimal;
  quantity: Prisma.Decimal;
  taker_side: TakerSide;
  created_at: Date;
}

/** A trade's public id: the order in which its fill was recorded (names no order, no fill, no workspace). */
const tradeId = (seq: bigint | string): string => `trd_${seq}`;

/** Newest first, at most `limit + 1` (the extra one says a page follows), within the window, after `after`. */
export async function ourTradesPage(
  db: Db,
  marketId: string,
  window: { gte?: Date; lt?: Date } | undefined,
  after: TapePosition | undefined,
  limit: number,
): Promise<(PublicTrade & { position: TapePosition })[]> {
  const filters = [Prisma.sql`f.market_id = ${marketId}`, IS_TRADE];
  if (window?.gte) filters.push(Prisma.sql`f.created_at >= ${window.gte}`);
  if (window?.lt) filters.push(Prisma.sql`f.created_at < ${window.lt}`);
  if (after) filters.push(Prisma.sql`(f.created_at, f.recorded_seq) < (${new Date(after.at)}, ${BigInt(after.seq)})`);
  const rows = await db.$queryRaw<TradeRow[]>`
    SELECT f.recorded_seq AS seq, ${TRADE_COLUMNS}, f.quantity, f.created_at
    FROM fills f WHERE ${Prisma.join(filters, ' AND ')}
    ORDER BY f.created_at DESC, f.recorded_seq DESC LIMIT ${limit + 1}`;
  return rows.map((row) => ({
    id: tradeId(row.seq),
    yesPrice: formatDecimal(row.yes_price),
    quantity: formatDecimal(row.quantity),
    takerSide: row.taker_side,
    executedAt: row.created_at,
    position: { at: row.created_at.toISOString(), seq: row.seq.toString() },
  }));
}

interface CandleRow {
  start: Date;
  open: Prisma.Decimal;
  high: Prisma.Decimal;
  low: Prisma.Decimal;
  close: Prisma.Decimal;
  volume: Prisma.Decimal;
}

/** The candles of the periods of [from, to) that hold a trade, oldest first; periods start at whole UTC minutes, hours, days. */
export async function ourCandles(db: Db, marketId: string, interval: CandleInterval, from: Date, to: Date): Promise<Candle[]> {
  const step = CANDLE_INTERVALS[interval];
  const rows = await db.$queryRaw<CandleRow[]>`
    SELECT date_bin(${`${step / 1000} seconds`}::interval, t.created_at, TIMESTAMPTZ '2000-01-01T00:00:00Z') AS start,
           (array_agg(t.yes_price ORDER BY t.created_at, t.seq))[1] AS open,
           max(t.yes_price) AS high,
           min(t.yes_price) AS low,
           (array_agg(t.yes_price ORDER BY t.created_at DESC, t.seq DESC))[1] AS close,
           sum(t.quantity) AS volume
    FROM (SELECT f.created_at, f.recorded_seq AS seq, f.quantity, ${TRADE_COLUMNS}
          FROM fills f WHERE f.market_id = ${marketId} AND ${IS_TRADE} AND f.created_at >= ${from} AND f.created_at < ${to}) t
    GROUP BY 1 ORDER BY 1`;
  return rows.map((row) => ({
    start: row.start,
    end: new Date(row.start.getTime() + step),
    open: formatDecimal(row.open),
    high: formatDecimal(row.high),
    low: formatDecimal(row.low),
    close: formatDecimal(row.close),
    volume: formatDecimal(row.volume),
    openInterest: null,
  }));
}

/** What the tape says of a market now: its last trade, and the contracts traded in all and in the last 24 hours. */
export interface TapeStats {
  readonly lastPrice: string | null;
  readonly lastTradeAt: Date | null;
  readonly volume: string;
  readonly volume24h: string;
}

interface StatsRow {
  id: string;
  volume: Prisma.Decimal | null;
  volume_24h: Prisma.Decimal | null;
  last_price: Prisma.Decimal | null;
  last_at: Date | null;
}

/** The tape's figures of several markets in one statement. */
export async function ourTapeStats(db: Db, marketIds: readonly string[], now: Date): Promise<Map<string, TapeStats>> {
  if (marketIds.length === 0) return new Map();
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const rows = await db.$queryRaw<StatsRow[]>`
    SELECT m.id, s.volume, s.volume_24h, l.yes_price AS last_price, l.created_at AS last_at
    FROM unnest(${[...marketIds]}::text[]) AS m(id)
    LEFT JOIN LATERAL (
      SELECT sum(f.quantity) AS volume, sum(f.quantity) FILTER (WHERE f.created_at > ${dayAgo}) AS volume_24h
      FROM fills f WHERE f.market_id = m.id AND ${IS_TRADE}) s ON true
    LEFT JOIN LATERAL (
      SELECT ${TRADE_COLUMNS}, f.created_at
      FROM fills f WHERE f.market_id = m.id AND ${IS_TRADE}
      ORDER BY f.created_at DESC, f.recorded_seq DESC LIMIT 1) l ON true`;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        lastPrice: formatDecimal(row.last_price),
        lastTradeAt: row.last_at,
        volume: formatDecimal(row.volume ?? 0),
        volume24h: formatDecimal(row.volume_24h ?? 0),
      },
    ]),
  );
}
