import type { Prisma } from '../../generated/prisma/client';
import type { Environment } from '../../../contract/environment';
import type { Decimal } from '../../domain/decimals';

/** What moves a subaccount's UTC day: realized P&L and fees, and for fills their count and traded value. */
export interface DailyPnlChange {
  realizedPnl: Decimal;
  fees: Decimal;
  fills: number;
  volume: Decimal;
}

/**
 * Adds to the UTC day of `at` in a subaccount's daily P&L rollup (read by the P&L history and the
 * daily-loss limit): a fill (executions), a fill taken back (reversals, negative), a settlement
 * (no fill, no volume). In the caller's transaction.
 */
export async function addToDailyPnl(
  tx: Prisma.TransactionClient,
  owner: { subaccountId: string; workspaceId: string; environment: Environment },
  at: Date,
  change: DailyPnlChange,
): Promise<void> {
  const day = at.toISOString().slice(0, 10);
  await tx.$executeRaw`
    INSERT INTO daily_pnl (subaccount_id, day, workspace_id, environment, realized_pnl, fees, fill_count, volume)
    VALUES (${owner.subaccountId}, ${day}::date, ${owner.workspaceId}, ${owner.environment}::"Environment",
            ${change.realizedPnl.toFixed()}::numeric, ${change.fees.toFixed()}::numeric, ${change.fills}::int, ${change.volume.toFixed()}::numeric)
    ON CONFLICT (subaccount_id, day) DO UPDATE SET
      realized_pnl = daily_pnl.realized_pnl + EXCLUDED.realized_pnl,
      fees = daily_pnl.fees + EXCLUDED.fees,
      fill_count = daily_pnl.fill_count + EXCLUDED.fill_count,
      volume = daily_pnl.volume + EXCLUDED.volume`;
}
