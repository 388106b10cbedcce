import { contextCacheSymbol } from '@pothos/core';
import type { Config } from '../config';
import type { CredentialKeys } from '../domain/credentialVault';
import type { Db } from '../db/prismaClient';
import { DomainError } from '../domain/errors';
import type { Principal } from '../../contract/principal';
import type { RevocationBus } from '../../contract/revocationBus';
import type { EventNotices } from '../../contract/eventNotices';
import type { VenueRegistry } from '../venues/venue';
import type { Scope } from '../services/scope';
import type { IdempotencyPort } from '../services/idempotency/requestClaim';
import type { DeadMansSwitchKeepAlive } from '../services/risk/deadMansSwitch';
import { createLoaders, type Loaders } from './loaders';
import type { Logger } from '../support/logger';

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
  /** The key-encryption keys that seal and open venue credentials (CREDENTIALS_KEK…). */
  credentialKeys: CredentialKeys;
  /** Set when the request carries an Idempotency-Key (claimed, or to be claimed in the use case's own write: IdempotencyPort.inWrite). */
  idempotency?: IdempotencyPort;
  /** When the request's venue calls must end (epoch ms; requestDeadline.ts). */
  deadline: number;
  /** The core's knowledge of the armed dead-man's switches, which API-key requests keep alive (services/risk/deadMansSwitch.ts). */
  keepAlive?: DeadMansSwitchKeepAlive;
  /** The event log's notices, which subscriptions follow: given to the analysts' endpoint only (analystYoga.ts). */
  eventNotices?: EventNotices;
  /**
   * Set when the request reads events: what they show is the past, so no order of theirs (nested
   * ones included: a child order's) asks its venue for its queue position now (schema/order.ts).
   */
  readsEvents?: boolean;
}

/** The core's shared parts every request's context carries. */
export type ContextDeps = Pick<CoreContext, 'db' | 'config' | 'revocations' | 'venues' | 'logger' | 'credentialKeys' | 'keepAlive' | 'eventNotices'>;

/** A request's context: the shared parts, who is asking, when its venue calls must end, and fresh per-request loaders. */
export function contextFor(deps: ContextDeps, principal: Principal, deadline: number): CoreContext {
  const { db, config, revocations, venues, logger, credentialKeys, keepAlive, eventNotices } = deps;
  // An authenticated API-key request keeps its workspace's armed dead-man's switches alive (at most one write per quarter timeout).
  keepAlive?.touch(principal);
  return { db, principal, config, revocations, venues, loaders: createLoaders(db, venues, { deadline }), logger, credentialKeys, deadline, keepAlive, eventNotices };
}

/**
 * A subscription's context lives as long as the subscription: before each event it forgets what
 * earlier events loaded (the request's DataLoaders and Pothos's per-context caches, which would
 * otherwise answer stale rows and grow without end) and gets a venue deadline of its own.
 */
export function renewForNextEvent(ctx: CoreContext): void {
  ctx.deadline = Date.now() + ctx.config.CORE_TIMEOUT_MS;
  ctx.loaders = createLoaders(ctx.db, ctx.venues, { deadline: ctx.deadline });
  (ctx as unknown as Record<symbol, unknown>)[contextCacheSymbol] = {};
}

/**
 * The scope of a request that reads or trades workspace data: an API key's workspace and
 * environment, or a dashboard user's, dashboard token's or analyst credential's workspace and the
 * environment it asked for. Every resolver of workspace data starts here, so no other principal
 * reaches that data. (Which routes a dashboard session may call at all is the gateway's route table.)
 */
export function requestScope(ctx: CoreContext): Scope {
  const { principal } = ctx;
  if (principal.kind === 'gateway') throw new DomainError('forbidden', 'This operation needs an API key.');
  return { workspaceId: principal.workspaceId, environment: principal.environment };
}

/**
 * The scope of a request that places orders: an API key's only. Every order is then traceable to a
 * key with its own rate limit and Idempotency-Key space; a dashboard session or an analyst
 * credential cannot trade, whatever route or document it sends.
 */
export function tradingScope(ctx: CoreContext): Scope {
  if (ctx.principal.kind !== 'api_key') throw new DomainError('forbidden', 'Placing orders needs an API key.');
  return requestScope(ctx);
}

/**
 * The scope of a request authenticated by the dashboard (a signed-in user or a dashboard token),
 * for what only the dashboard may do: managing API keys and attaching venue credentials.
 */
export function dashboardScope(ctx: CoreContext): Scope {
  const { principal } = ctx;
  if (principal.kind !== 'dashboard' && principal.kind !== 'user') {
    throw new DomainError('forbidden', 'This operation is authenticated by the dashboard, not by an API key.');
  }
  return { workspaceId: principal.workspaceId, environment: principal.environment };
}

/**
 * The `extensions` of a field only the gateway may call (its lookups of credentials and sessions,
 * sign-in): refused to any other principal (requireGateway), and absent from the analysts' schema
 * (analystSchema.ts), so that their introspection does not list it.
 */
export const GATEWAY_ONLY = { gatewayOnly: true } as const;

export function requireGateway(ctx: CoreContext): void {
  if (ctx.principal.kind !== 'gateway') throw new DomainError('forbidden', 'Internal operation.');
}
