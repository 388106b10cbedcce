import type { ApiKeyCreds } from '@polymarket/clob-client-v2';
import type { Db } from '../../db/prismaClient';
import { openStoredCredential } from '../../db/storedCredentials';
import { formatDecimal } from '../../domain/decimals';
import { DomainError } from '../../domain/errors';
import { LiveAccounts } from '../liveAccounts';
import { ourOrdersOf } from '../ourOrders';
import type { Logger } from '../../support/logger';
import type { LiveVenue, VenueFill, VenueOrderState } from '../venue';
import { polymarketCredentialFromStored } from './credentials';
import type { PolymarketMarketTerms, PolymarketMarkets } from './orderWire';
import { PolymarketVenue } from './polymarketVenue';
import { PolymarketSession } from './session';
import { polymarketSigningFor, type Chain } from './signing';
import { PolymarketUserStream } from './userStream';
import type { PolymarketPublicReads } from './publicReads';
import { PolymarketSettlementReads } from './settlementReads';

/** The configuration an account reads (core/config.ts `POLYMARKET_*`). */
export interface PolymarketSettings {
  /** The CLOB's REST base (production https://clob.polymarket.com). */
  readonly POLYMARKET_CLOB_URL: string;
  /** The user channel's URL; derived from the REST base when unset (`polymarketUserChannelUrl`). */
  readonly POLYMARKET_WS_URL?: string;
  /** The chain its orders are signed for: 137 (Polygon) or 80002 (Amoy). */
  readonly POLYMARKET_CHAIN_ID: Chain;
  readonly POLYMARKET_TIMEOUT_MS: number;
  /** The public Data API's base (production https://data-api.polymarket.com): positions and redemptions. */
  readonly POLYMARKET_DATA_API_URL: string;
}

/** What an open Polymarket account reports as it happens; the core records it (services own the bookkeeping). */
export interface PolymarketAccountSinks {
  /**
   * Fills of our orders from the stream or a sweep, and those whose trade ended FAILED (each
   * recorded one reversed, one not recorded never recorded): the failures taken first
   * (liveReconciler.ts recordFillsAndFailures); idempotent by venue fill id.
   */
  recordListing(listed: { fills: VenueFill[]; failed: VenueFill[] }): Promise<unknown>;
  /** A change the venue made to one of our orders without a fill (a cancel). */
  recordState(orderId: string, state: VenueOrderState): Promise<unknown>;
}

export interface PolymarketAccountsOptions {
  config: PolymarketSettings;
  keyring: ReadonlyMap<string, Buffer>;
  sinks: PolymarketAccountSinks;
  logger: Logger;
  /** How far back the sweep on every (re)connect of the user channel reads trades. */
  sweepWindowMs: number;
  /** The user channel per account; off only where a test exercises the REST sweep alone. */
  stream?: { enabled: boolean; staleAfterMs?: number; pingIntervalMs?: number };
  /** Wraps each account as it opens (the core's metrics). */
  decorate?: (venue: LiveVenue) => LiveVenue;
  /** The public Data API (positions, redemptions), shared by the accounts: their settlements. */
  dataApi?: PolymarketPublicReads;
}

/** The production user channel (docs.polymarket.com "User Channel"). */
export const POLYMARKET_USER_CHANNEL_URL = 'wss://ws-subscriptions-clob.polymarket.com/ws/user';

/**
 * The user channel's URL: `POLYMARKET_WS_URL` when set; for the production REST host, the
 * production channel (another host, ws-subscriptions-clob); for any other REST base (the fake),
 * the same host with `ws(s):` and the path `/ws/user`.
 */
export function polymarketUserChannelUrl(config: Pick<PolymarketSettings, 'POLYMARKET_CLOB_URL' | 'POLYMARKET_WS_URL'>): string {
  if (config.POLYMARKET_WS_URL) return config.POLYMARKET_WS_URL;
  const rest = new URL(config.POLYMARKET_CLOB_URL);
  if (rest.hostname === 'clob.polymarket.com') return POLYMARKET_USER_CHANNEL_URL;
  return `${rest.protocol === 'https:' ? 'wss:' : 'ws:'}//${rest.host}/ws/user`;
}

/** The production market channel (docs.polymarket.com "Market Channel"). */
export const POLYMARKET_MARKET_CHANNEL_URL = 'wss://ws-subscriptions-clob.polymarket.com/ws/market';

/** The market channel's URL: `POLYMARKET_MARKET_WS_URL` when set; the production channel for the production REST host; else the REST host's `/ws/market` (the fake). */
export function polymarketMarketChannelUrl(config: { POLYMARKET_CLOB_URL: string; POLYMARKET_MARKET_WS_URL?: string }): string {
  if (config.POLYMARKET_MARKET_WS_URL) return config.POLYMARKET_MARKET_WS_URL;
  const rest = new URL(config.POLYMARKET_CLOB_URL);
  if (rest.hostname === 'clob.polymarket.com') return POLYMARKET_MARKET_CHANNEL_URL;
  return `${rest.protocol === 'https:' ? 'wss:' : 'ws:'}//${rest.host}/ws/market`;
}

/**
 * Polymarket accounts, one per subaccount credential (CLOB V2). Opening one decrypts the stored
 * credential (the key lives in the session's signer, in memory only), reads the venue's clock, and
 * when the credential carries no API credentials derives them with L1 auth (ensurePolymarketApiCreds);
 * they are kept in memory only, derived again on the next opening. Then the account's user channel
 * (userStream.ts) starts: its trades are recorded as fills as they come (FAILED ones reported to be
 * reversed), its CANCELLATIONs as states, and every (re)connect sweeps the account's REST trades of
 * the last `sweepWindowMs` (the venue replays nothing a dropped socket missed; REST is the truth).
 * The live reconciler's periodic sweep (`fillsAndFailuresSince`) runs besides.
 */
export function polymarketAccounts(db: Db, options: PolymarketAccountsOptions): LiveAccounts {
  return new LiveAccounts(db, 'polymarket', options.config.POLYMARKET_TIMEOUT_MS, async (subaccountId) => {
    const credential = polymarketCredentialFromStored(await openStoredCredential(db, options.keyring, subaccountId, 'polymarket'));
    const session = new PolymarketSession({
      baseUrl: options.config.POLYMARKET_CLOB_URL,
      signing: polymarketSigningFor(credential, options.config.POLYMARKET_CHAIN_ID),
      timeoutMs: options.config.POLYMARKET_TIMEOUT_MS,
      ...(credential.apiCreds ? { creds: credential.apiCreds } : {}),
    });
    try {
      await session.syncTime();
      if (!credential.apiCreds) await ensurePolymarketApiCreds(session);
    } catch (error) {
      await session.close();
      throw error;
    }
    const streams: PolymarketUserStream[] = [];
    const log = options.logger.child({ subaccountId, venue: 'polymarket' });
    const onUnreadableTrade = (tradeId: string | null, why: string) => log.warn({ tradeId }, `a Polymarket trade was left out: ${why}`);
    const settlements = options.dataApi ? new PolymarketSettlementReads(session, options.dataApi, credential.funderAddress) : undefined;
    const venue = new PolymarketVenue({ session, ourOrders: ourOrdersOf(db, subaccountId, 'polymarket'), markets: polymarketMarketsOf(db, subaccountId), alsoClose: streams, onUnreadableTrade, settlements });
    if (options.stream?.enabled === false) return venue;

    const failed = (what: string) => (error: unknown) => log.error({ err: error }, `${what}; the fill sweep reconciles`);
    const record = (listed: { fills: VenueFill[]; failed: VenueFill[] }) => options.sinks.recordListing(listed);
    const sweep = () =>
      venue
        .fillsAndFailuresSince(new Date(Date.now() - options.sweepWindowMs))
        .then(record)
        .catch(failed('the sweep on a user channel (re)connect failed'));
    const stream = new PolymarketUserStream({
      wsUrl: polymarketUserChannelUrl(options.config),
      creds: () => session.creds,
      onEvents: async (events) => {
        const read = await venue.readUserEvents(events);
        await record(read).catch(failed('could not record streamed fills'));
        for (const state of read.canceled) {
          await options.sinks.recordState(state.clientOrderId, state).catch((error: unknown) => log.warn({ err: error }, 'could not record an order update; reads reconcile'));
        }
      },
      onConnected: () => sweep(),
      staleAfterMs: options.stream?.staleAfterMs,
      pingIntervalMs: options.stream?.pingIntervalMs,
    });
    streams.push(stream);
    stream.start();
    return venue;
  }, options.decorate);
}

/**
 * The account's API credentials from its key with L1 auth (EIP-712 `ClobAuth`, nonce 0): first
 * `GET /auth/derive-api-key` (a read: the key made before), else `POST /auth/api-key` (create), as
 * the client's `createOrDeriveApiKey` in the other order (a create that exists fails, then derives).
 * The session uses them from then on. A failure is `venue_unavailable`, naming no secret.
 */
export async function ensurePolymarketApiCreds(session: PolymarketSession): Promise<ApiKeyCreds> {
  const derived = await session.request('GET', '/auth/derive-api-key', { auth: 'l1' });
  let creds = derived.kind === 'answered' ? apiCredsOf(derived.body) : null;
  if (creds === null && (derived.kind === 'refused' || derived.kind === 'answered')) {
    const created = await session.request('POST', '/auth/api-key', { auth: 'l1', write: true });
    creds = created.kind === 'answered' ? apiCredsOf(created.body) : null;
  }
  if (creds === null) throw new DomainError('venue_unavailable', 'Polymarket API credentials could not be derived from this key now (L1 auth); the account opens on a later request.');
  session.useCreds(creds);
  return creds;
}

function apiCredsOf(body: unknown): ApiKeyCreds | null {
  const raw = body as { apiKey?: unknown; secret?: unknown; passphrase?: unknown } | null;
  if (typeof raw?.apiKey !== 'string' || raw.apiKey === '' || typeof raw.secret !== 'string' || typeof raw.passphrase !== 'string') return null;
  return { key: raw.apiKey, secret: raw.secret, passphrase: raw.passphrase };
}

const MARKET_SELECT = { venueMarketId: true, yesTokenId: true, noTokenId: true, negRisk: true, tickSize: true, minSize: true } as const;

type MarketRow = { venueMarketId: string; yesTokenId: string | null; noTokenId: string | null; negRisk: boolean; tickSize: { toString(): string }; minSize: { toString(): string } };

const terms = (row: MarketRow): PolymarketMarketTerms | null =>
  row.yesTokenId && row.noTokenId
    ? { venueMarketId: row.venueMarketId, yesTokenId: row.yesTokenId, noTokenId: row.noTokenId, negRisk: row.negRisk, tickSize: formatDecimal(row.tickSize), minSize: formatDecimal(row.minSize) }
    : null;

/**
 * Our live Polymarket markets as the adapter asks for them: the catalog row keyed by
 * (`polymarket`, condition id) with its two tokens, tick and neg-risk flag (filled by the Gamma
 * catalog sync). A row without both tokens cannot be traded.
 */
export function polymarketMarketTermsOf(db: Db): Pick<PolymarketMarkets, 'byVenueMarketId'> {
  return {
    async byVenueMarketId(venueMarketId) {
      const row = await db.market.findUnique({ where: { venue_venueMarketId: { venue: 'polymarket', venueMarketId } }, select: MARKET_SELECT });
      return row ? terms(row) : null;
    },
  };
}

/** The same, with the markets one subaccount has orders in (its account's `positions`). */
export function polymarketMarketsOf(db: Db, subaccountId: string): PolymarketMarkets {
  return {
    ...polymarketMarketTermsOf(db),
    async traded() {
      const rows = await db.market.findMany({ where: { venue: 'polymarket', orders: { some: { subaccountId } } }, select: MARKET_SELECT, orderBy: { venueMarketId: 'asc' } });
      return rows.map(terms).filter((market): market is PolymarketMarketTerms => market !== null);
    },
  };
}
