import { sqlPoolOf, type Db } from '../../db/prismaClient';
import type { Market } from '../../generated/prisma/client';
import type { MarketRules } from '../../domain/venueRules';
import { Decimal } from '../../domain/decimals';
import { DomainError, notFound } from '../../domain/errors';
import { maxTakerFee } from '../../domain/marketRules';
import { planExecution, type ExecutionPlan, type ExecutionStrategy, type PlanAlternative } from '../../domain/planning';
import { checkPlannedChildren, type ChildRefusal, type MarketHolding, type PlannedChildCheck } from '../../domain/planPreTradeRisk';
import { marketRulesOf, venueName } from '../../venues/venueModules';
import { eligibleListings, snapshotsOf } from './books';
import { loadPreTradeState, type PreTradeState } from '../risk/exposure';
import type { VenueRegistry } from '../../venues/venue';
import { marketVisibleTo, type Scope } from '../scope';
import { getSubaccount } from '../accounts/subaccounts';

/** How deep the books are read for a plan: enough levels for large sweeps. */
const BOOK_DEPTH = 100;

export interface PreviewInput {
  subaccountId: string;
  marketId: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  quantity: string;
  limitPrice?: string | null;
  strategy: ExecutionStrategy;
  durationSeconds?: number | null;
  slices?: number | null;
  venues?: string[] | null;
}

export interface Preview {
  marketId: string;
  /** The market of each eligible venue whose book was read. */
  marketIdsByVenue: Record<string, string>;
  plan: ExecutionPlan;
}

/** A child of a planned alternative that a pre-trade check would refuse, and why. */
export interface PreviewRefusal extends ChildRefusal {
  venue: string;
  sliceIndex: number | null;
  price: string;
  quantity: string;
}

export interface AlternativeRisk {
  /** The alternative's id (`sweep:sim-kalshi`, ...). */
  id: string;
  /** No child of the alternative would be refused by the subaccount's pre-trade checks. */
  passes: boolean;
  refusals: PreviewRefusal[];
}

/**
 * The subaccount's pre-trade checks over the children of the plan (domain/planPreTradeRisk.ts):
 * `alternativeId`, `passes` and `refusals` are the recommended alternative's (the one a placement
 * executes; null, passing, when nothing is recommended), `alternatives` every alternative's.
 */
export interface PreviewRisk {
  alternativeId: string | null;
  passes: boolean;
  refusals: PreviewRefusal[];
  alternatives: AlternativeRisk[];
}

/**
 * Predicts what a parent order would cost and recommends how to execute it, reading the current
 * books of every eligible venue that lists the same question (the market's `question_key`). Reads
 * only: nothing is placed, reserved or stored. The plan alone: placement plans with it, and each
 * child then meets the pre-trade checks when it is sent.
 */
export async function previewComplexOrder(db: Db, venues: VenueRegistry, scope: Scope, input: PreviewInput): Promise<Preview> {
  return (await planOnBooks(db, venues, scope, input)).preview;
}

/**
 * The preview the API answers: the plan, and which of the subaccount's pre-trade checks would
 * refuse which child of each alternative (`risk`). Reads only: the checks run on the figures as
 * they are, nothing is locked, reserved, recorded or counted (not even a risk_limit.breached event).
 */
export async function previewComplexOrderWithRisk(
  db: Db,
  venues: VenueRegistry,
  scope: Scope,
  input: PreviewInput,
): Promise<Preview & { risk: PreviewRisk }> {
  const { preview, listings } = await planOnBooks(db, venues, scope, input);
  return { ...preview, risk: await riskOfPlan(db, scope, input, preview.plan, listings) };
}

async function planOnBooks(db: Db, venues: VenueRegistry, scope: Scope, input: PreviewInput): Promise<{ preview: Preview; listings: Market[] }> {
  await getSubaccount(db, scope, input.subaccountId);
  const market = await db.market.findUnique({ where: { id: input.marketId } });
  if (!market || !marketVisibleTo(market, scope)) throw notFound('market', input.marketId);
  const listings = (await eligibleListings(db, scope, market, input.venues)).filter((listing) => venues.marketData(listing.venue));
  const snapshots = await snapshotsOf(venues, listings, BOOK_DEPTH);
  if (snapshots.length === 0) throw new DomainError('market_not_tradable', 'No eligible venue lists this market for the caller.');
  const plan = planExecution(
    {
      side: input.side,
      action: input.action,
      quantity: input.quantity,
      limitPrice: input.limitPrice ?? null,
      strategy: input.strategy,
      durationSeconds: input.durationSeconds ?? null,
      slices: input.slices ?? null,
      venues: snapshots.map((s) => s.venue),
    },
    snapshots,
  );
  return {
    preview: { marketId: market.id, marketIdsByVenue: Object.fromEntries(listings.map((l) => [venueName(l.venue), l.id])), plan },
    listings,
  };
}

/**
 * Runs the order path's pre-trade checks over every alternative's children. The figures are the
 * order path's own statement (loadPreTradeState), read once per market a child trades, outside any
 * transaction and without the subaccount's lock: a read.
 */
async function riskOfPlan(db: Db, scope: Scope, input: PreviewInput, plan: ExecutionPlan, listings: readonly Market[]): Promise<PreviewRisk> {
  const used = new Set(plan.alternatives.flatMap((alternative) => alternative.children.map((child) => child.venue as string)));
  const subaccount = { id: input.subaccountId, workspaceId: scope.workspaceId, environment: scope.environment };
  const sql = sqlPoolOf(db);
  const byVenue = new Map<string, { rules: MarketRules; state: PreTradeState }>();
  for (const listing of listings) {
    const venue = venueName(listing.venue);
    if (!used.has(venue)) continue;
    // '' is no client order id (they are 1 to 64 characters): the statement finds none.
    const state = await loadPreTradeState(sql, subaccount, { id: listing.id, side: input.side }, '');
    if (!state) throw notFound('subaccount', input.subaccountId);
    byVenue.set(venue, { rules: marketRulesOf(listing), state });
  }
  const first = byVenue.values().next().value;
  const alternatives = plan.alternatives.map((alternative): AlternativeRisk => {
    if (!first || alternative.children.length === 0) return { id: alternative.id, passes: true, refusals: [] };
    const markets = new Map<string, MarketHolding>(
      [...byVenue].map(([venue, { state }]) => [
        venue,
        { positionIncludingOpenBuys: state.exposure.positionIncludingOpenBuys, sellableQuantity: state.exposure.sellableQuantity },
      ]),
    );
    const refusals = checkPlannedChildren(childChecks(alternative, byVenue), {
      subaccountId: input.subaccountId,
      limits: first.state.limits,
      exposure: first.state.exposure,
      markets,
      tradingHalted: first.state.tradingHalted,
      deadMansSwitchLapsed: first.state.deadMansSwitchLapsed,
    });
    return { id: alternative.id, passes: refusals.length === 0, refusals: refusals.map((refusal) => refusalView(alternative, refusal)) };
  });
  const recommended = plan.recommended ? alternatives.find((a) => a.id === plan.recommended!.id)! : null;
  return {
    alternativeId: recommended?.id ?? null,
    passes: recommended?.passes ?? true,
    refusals: recommended?.refusals ?? [],
    alternatives,
  };
}

/** An alternative's children as the order path would check them: limit orders at their planned price. */
function childChecks(alternative: PlanAlternative, byVenue: ReadonlyMap<string, { rules: MarketRules }>): PlannedChildCheck[] {
  return alternative.children.map((child) => {
    const quantity = new Decimal(child.quantity);
    const price = new Decimal(child.price);
    return {
      market: child.venue,
      order: { action: child.action, quantity, worstPrice: price, maxFee: maxTakerFee(byVenue.get(child.venue)!.rules, price, quantity) },
      offsetMs: Math.round(Number(child.offsetSeconds) * 1000),
      rests: child.timeInForce === 'gtc',
      expectedFees: new Decimal(child.expectedFees),
    };
  });
}

function refusalView(alternative: PlanAlternative, refusal: ChildRefusal): PreviewRefusal {
  const child = alternative.children[refusal.child]!;
  return {
    child: refusal.child,
    venue: child.venue,
    sliceIndex: child.sliceIndex,
    price: child.price,
    quantity: child.quantity,
    code: refusal.code,
    limit: refusal.limit,
    message: refusal.message,
  };
}
