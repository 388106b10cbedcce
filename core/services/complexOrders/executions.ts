import type { Db } from '../../db/prismaClient';
import { averagePriceOf, Decimal, formatDecimal } from '../../domain/decimals';

/** What the children of a complex order executed so far, from their fills (a reversed fill does not count). */
export interface ComplexOrderExecution {
  filledQuantity: string;
  /** Σ price × quantity / Σ quantity, an average price as the decimal module rounds it; null before the first fill. */
  averageFillPrice: string | null;
  feesPaid: string;
}

/** The executions of several complex orders in one query (every id answered, zeros when nothing filled). */
export async function complexOrderExecutions(db: Db, ids: readonly string[]): Promise<Map<string, ComplexOrderExecution>> {
  const rows = await db.$queryRaw<{ id: string; filled: string; notional: string; fees: string }[]>`
    SELECT o.complex_order_id AS id,
           COALESCE(sum(f.quantity), 0)::text AS filled,
           COALESCE(sum(f.price * f.quantity), 0)::text AS notional,
           COALESCE(sum(f.fee), 0)::text AS fees
      FROM orders o JOIN fills f ON f.order_id = o.id AND f.reversed_at IS NULL
     WHERE o.complex_order_id = ANY(${[...ids]})
     GROUP BY o.complex_order_id`;
  const result = new Map<string, ComplexOrderExecution>(ids.map((id) => [id, { filledQuantity: '0', averageFillPrice: null, feesPaid: '0' }]));
  for (const row of rows) {
    const filled = new Decimal(row.filled);
    result.set(row.id, {
      filledQuantity: filled.toFixed(),
      averageFillPrice: formatDecimal(averagePriceOf(row.notional, filled)),
      feesPaid: new Decimal(row.fees).toFixed(),
    });
  }
  return result;
}
