import type { Db } from '../../db/prismaClient';
import type { Prisma, Settlement } from '../../generated/prisma/client';
import { Decimal, formatDecimal } from '../../domain/decimals';
import { DomainError, notFound } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { WORKING_STATUSES } from '../../domain/orderLifecycle';
import { decodeCursor, isIdCursor, parseLimit, timeWindow, toPage } from '../../domain/pagination';
import { receiptHash } from '../../domain/receipts';
import { settlePosition, type MarketOutcome } from '../../domain/settlement';
import { venueName } from '../../venues/venueModules';
import { addToDailyPnl } from '../risk/dailyPnl';
import { scopedRows, type Scope } from '../scope';

type Tx = Prisma.TransactionClient;

/**
 * Settles a market (docs/settlement.md): it becomes `settled` with its result, and every position
 * in it, of every subaccount and both sides, is closed at the outcome (core/domain/settlement.ts):
 * the payout credited to a test subaccount's cash (a live venue pays its own account), realized
 * P&L = payout - cost basis - fee booked on the settlement's UTC day, one settlement per
 * subaccount and market with its receipt.
 *
 * Exactly once, whatever the number of cores or repeated notices: one transaction, the market's
 * row locked first; a market already settled settles nothing again, and a subaccount's settlement
 * is keyed by (subaccount, market), so a settlement row that exists moves no money. Refused
 * (conflict) while orders on the market are still working: close it first (marketClosing.ts).
 * Answers the settlements written now.
 */
export async function settleMarket(db: Db, marketId: string, outcome: MarketOutcome, options: { at?: Date; venueReference?: string | null } = {}): Promise<Settlement[]> {
  const at = options.at ?? new Date();
  return db.$transaction(async (tx) => {
    const [market] = await tx.$queryRaw<{ id: string; status: string; venue: string; venue_market_id: string }[]>`
      SELECT id, status::text, venue, venue_market_id FROM markets WHERE id = ${marketId} FOR UPDATE`;
    if (!market) throw notFound('market', marketId);
    if (market.status === 'settled') return [];
    const working = await tx.order.count({ where: { marketId, status: { in: [...WORKING_STATUSES] } } });
    if (working > 0) throw new DomainError('conflict', `Market '${marketId}' still has ${working} working order(s): close it first.`);
    await tx.market.update({
      where: { id: marketId },
      data: { status: 'settled', result: outcome.result, settlementValue: outcome.settlementValue?.toFixed() ?? null, settledAt: at, updatedAt: at },
    });
    const positions = await tx.position.findMany({
      where: { marketId, quantity: { gt: 0 } },
      include: { subaccount: { select: { workspaceId: true, environment: true } } },
      orderBy: [{ subaccountId: 'asc' }, { side: 'asc' }],
    });
    const bySubaccount = new Map<string, typeof positions>();
    for (const position of positions) {
      const held = bySubaccount.get(position.subaccountId);
      if (held) held.push(position);
      else bySubaccount.set(position.subaccountId, [position]);
    }
    const written: Settlement[] = [];
    for (const [subaccountId, held] of bySubaccount) {
      const settled = await settleSubaccount(tx, { subaccountId, ...held[0]!.subaccount }, market, held, outcome, at, options.venueReference ?? null);
      if (settled) written.push(settled);
    }
    return written;
  });
}

type HeldPosition = { side: 'yes' | 'no'; quantity: Prisma.Decimal; costBasis: Prisma.Decimal; realizedPnl: Prisma.Decimal };

async function settleSubaccount(
  tx: Tx,
  owner: { subaccountId: string; workspaceId: string; environment: 'test' | 'live' },
  market: { id: string; venue: string; venue_market_id: string },
  held: HeldPosition[],
  outcome: MarketOutcome,
  at: Date,
  venueReference: string | null,
): Promise<Settlement | null> {
  const sides = held.map((position) => ({
    side: position.side,
    settled: settlePosition(position.side, { quantity: new Decimal(position.quantity.toString()), cost: new Decimal(position.costBasis.toString()) }, outcome),
  }));
  const total = (pick: (s: (typeof sides)[number]['settled']) => Decimal) => sides.reduce((sum, s) => sum.add(pick(s.settled)), new Decimal(0));
  const quantityOf = (side: 'yes' | 'no') => sides.find((s) => s.side === side)?.settled.quantity ?? new Decimal(0);
  const id = newId('settlement');
  const figures = {
    yes_quantity: formatDecimal(quantityOf('yes'))!,
    no_quantity: formatDecimal(quantityOf('no'))!,
    cost_basis: formatDecimal(total((s) => s.costBasis))!,
    payout: formatDecimal(total((s) => s.payout))!,
    fee: formatDecimal(total((s) => s.fee))!,
    realized_pnl: formatDecimal(total((s) => s.realizedPnl))!,
  };
  const receipt = {
    receipt_version: 1,
    kind: 'settlement',
    settlement_id: id,
    subaccount_id: owner.subaccountId,
    market_id: market.id,
    venue: venueName(market.venue),
    venue_market_id: market.venue_market_id,
    result: outcome.result,
    settlement_value: formatDecimal(outcome.settlementValue),
    positions: sides.map((s) => ({ side: s.side, quantity: formatDecimal(s.settled.quantity), cost_basis: formatDecimal(s.settled.costBasis), payout: formatDecimal(s.settled.payout) })),
    ...figures,
    venue_reference: venueReference,
    settled_at: at.toISOString(),
  };
  // Keyed by (subaccount, market): a settlement that exists already moved its money.
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO settlements (id, workspace_id, environment, subaccount_id, market_id, result, settlement_value, yes_quantity, no_quantity,
                             cost_basis, payout, fee, realized_pnl, venue_reference, settled_at, receipt, receipt_hash)
    VALUES (${id}, ${owner.workspaceId}, ${owner.environment}::"Environment", ${owner.subaccountId}, ${market.id}, ${outcome.result}::"MarketResult",
            ${outcome.settlementValue?.toFixed() ?? null}::numeric, ${figures.yes_quantity}::numeric, ${figures.no_quantity}::numeric,
            ${figures.cost_basis}::numeric, ${figures.payout}::numeric, ${figures.fee}::numeric, ${figures.realized_pnl}::numeric,
            ${venueReference}, ${at}, ${JSON.stringify(receipt)}::jsonb, ${receiptHash(receipt)})
    ON CONFLICT (subaccount_id, market_id) DO NOTHING
    RETURNING id`;
  if (inserted.length === 0) return null;
  for (const { side, settled } of sides) {
    const position = held.find((p) => p.side === side)!;
    await tx.position.update({
      where: { subaccountId_marketId_side: { subaccountId: owner.subaccountId, marketId: market.id, side } },
      data: { quantity: '0', costBasis: '0', realizedPnl: new Decimal(position.realizedPnl.toString()).add(settled.realizedPnl).toFixed(), updatedAt: at },
    });
  }
  if (owner.environment === 'test') {
    await tx.subaccount.update({ where: { id: owner.subaccountId }, data: { cashBalance: { increment: figures.payout } } });
  }
  await addToDailyPnl(tx, owner, at, { realizedPnl: new Decimal(figures.realized_pnl), fees: new Decimal(figures.fee), fills: 0, volume: new Decimal(0) });
  return tx.settlement.findUniqueOrThrow({ where: { id } });
}

export interface SettlementFilter {
  subaccountId?: string | null;
  marketId?: string | null;
  since?: Date | null;
  until?: Date | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Settlements of the scope, newest first; `since`/`until` bound the settlement's time. */
export async function listSettlements(db: Db, scope: Scope, filter: SettlementFilter) {
  const limit = parseLimit(filter.limit);
  const after = decodeCursor(filter.cursor, isIdCursor);
  const window = timeWindow(filter.since, filter.until);
  const rows = await db.settlement.findMany({
    where: {
      ...scopedRows(scope, filter),
      ...(window ? { settledAt: window } : {}),
      ...(after ? { id: { lt: after.id } } : {}),
    },
    orderBy: { id: 'desc' },
    take: limit + 1,
  });
  return toPage(rows, limit, (row) => ({ id: row.id }));
}
