import type { Config } from '../config';
import type { Db } from '../db/prismaClient';
import { DomainError } from '../domain/errors';
import type { Principal } from '../protocol/principal';
import type { RevocationBus } from '../protocol/revocationBus';
import type { VenueRegistry } from '../services/orders';
import type { Scope } from '../services/scope';
import { createLoaders, type Loaders } from './loaders';
import type { Logger } from '../support/logger';
import type { IdempotencyClaim } from './idempotency';

/** What every resolver gets: the database, who is asking, and the core's shared parts. */
export interface CoreContext {
  db: Db;
  principal: Principal;
  config: Config;
  revocations: RevocationBus;
  venues: VenueRegistry;
  /** Per-request batching (DataLoader). */
  loaders: Loaders;
  logger: Logger;
  /** Set when the request carries an Idempotency-Key that this request claimed. */
  idempotency?: IdempotencyClaim;
}

/** The core's shared parts every request's context carries. */
export type ContextDeps = Pick<CoreContext, 'db' | 'config' | 'revocations' | 'venues' | 'logger'>;

/** A request's context: the shared parts, who is asking, and fresh per-request loaders. */
export function contextFor(deps: ContextDeps, principal: Principal): CoreContext {
  const { db, config, revocations, venues, logger } = deps;
  return { db, principal, config, revocations, venues, loaders: createLoaders(db, venues), logger };
}

/**
 * The scope of a request that reads or trades workspace data: an API key's workspace and
 * environment, or an analyst credential's workspace and the environment it asked for. Every
 * resolver of workspace data starts here, so no other principal reaches that data.
 */
export function requestScope(ctx: CoreContext): Scope {
  const { principal } = ctx;
  if (principal.kind !== 'api_key' && principal.kind !== 'analyst') throw new DomainError('forbidden', 'This operation needs an API key.');
  return { workspaceId: principal.workspaceId, environment: principal.environment };
}

/** The workspace a dashboard request acts for. */
export function dashboardWorkspace(ctx: CoreContext): string {
  if (ctx.principal.kind !== 'dashboard') {
    throw new DomainError('forbidden', 'This operation is authenticated by the dashboard, not by an API key.');
  }
  return ctx.principal.workspaceId;
}

export function requireGateway(ctx: CoreContext): void {
  if (ctx.principal.kind !== 'gateway') throw new DomainError('forbidden', 'Internal operation.');
}
