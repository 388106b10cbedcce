import type { Db } from '../../db/prismaClient';
import { openStoredCredential } from '../../db/storedCredentials';
import { kalshiEnvironmentNamed, type KalshiEnvironment } from '../../domain/credentialShapes';
import type { Logger } from '../../support/logger';
import { LiveAccounts } from '../liveAccounts';
import { ourOrdersOf } from '../ourOrders';
import type { LiveVenue, MarketData, OurOrders, VenueFill, VenueOrderState } from '../venue';
import { kalshiEndpoints } from './endpoints';
import { KalshiVenue } from './kalshiVenue';
import { stateFromRestOrder } from './orderWire';
import { kalshiSessionForCredential, type KalshiSessionSettings } from './session';
import { kalshiSignerFromCredential } from './signing';
import { KalshiUserStream } from './userStream';
import { recordOf } from '../wireRecords';

/** What an open Kalshi account reports as it happens; the core records it (services own the bookkeeping). */
export interface KalshiAccountSinks {
  /** Fills of our orders, from the stream or a sweep; recording is idempotent by venue fill id. */
  recordFills(fills: VenueFill[]): Promise<unknown>;
  /** A change the venue made to one of our orders without a fill (a cancel, an expiry). */
  recordState(orderId: string, state: VenueOrderState): Promise<unknown>;
  /** Kalshi's notice that a market settled (`market_lifecycle_v2` `settled`): a hint to read the settlements now. */
  marketSettled(ticker: string): void;
}

export interface KalshiAccountsOptions {
  config: KalshiSessionSettings;
  keyring: ReadonlyMap<string, Buffer>;
  /** Public market data of each Kalshi environment: a demo key's books are demo's. */
  books: (environment: KalshiEnvironment) => MarketData;
  sinks: KalshiAccountSinks;
  logger: Logger;
  /** How far back a sweep after a reconnect or a stream gap reads fills. */
  sweepWindowMs: number;
  /** Kalshi's private stream per account (KALSHI_USER_STREAM_ENABLED); off leaves fills and order ends to the REST sweeps. */
  stream?: { enabled: boolean; staleAfterMs?: number };
  /** Wraps each account as it opens, for whoever hands it out (the core's metrics). */
  decorate?: (venue: LiveVenue) => LiveVenue;
}

/**
 * Kalshi accounts, one per subaccount credential (Trade API v2). Opening one decrypts the stored
 * credential (the key lives in the session's signer and the stream's, in memory only), refuses a
 * credential that does not say its environment, and starts the account's private stream (`fill`,
 * `user_orders`, and `market_lifecycle_v2`, whose `settled` notices nudge the settlement sweep): fills are recorded as they come, and every reconnect or sequence gap sweeps the
 * account's REST fills, since Kalshi does not replay what a dropped socket missed.
 */
export function kalshiAccounts(db: Db, options: KalshiAccountsOptions): LiveAccounts {
  return new LiveAccounts(db, 'kalshi', options.config.KALSHI_TIMEOUT_MS, async (subaccountId) => {
    const credential = await openStoredCredential(db, options.keyring, subaccountId, 'kalshi');
    const environment = kalshiEnvironmentNamed(credential.environment);
    const session = kalshiSessionForCredential(options.config, credential); // refuses a credential without an environment
    const ourOrders = ourOrdersOf(db, subaccountId, 'kalshi');
    const streams: KalshiUserStream[] = [];
    const venue = new KalshiVenue({ session, ourOrders, books: options.books(environment!), alsoClose: streams });
    const log = options.logger.child({ subaccountId, venue: 'kalshi' });
    const failed = (what: string) => (error: unknown) => log.error({ err: error }, `${what}; the fill sweep reconciles`);
    venue.onFills((fills) => void options.sinks.recordFills(fills).catch(failed('could not record streamed fills')));
    if (options.stream?.enabled === false) return venue;

    const sweep = async (): Promise<void> => {
      await venue
        .fillsSince(new Date(Date.now() - options.sweepWindowMs))
        .then((fills) => options.sinks.recordFills(fills))
        .catch(failed('the sweep after a stream interruption failed'));
    };
    const stream = new KalshiUserStream({
      wsUrl: kalshiEndpoints(options.config, environment!).wsUrl,
      signer: kalshiSignerFromCredential(credential),
      onFills: (messages) => venue.applyStreamFills(messages),
      onUserOrders: (messages) => recordOrderUpdates(messages, ourOrders, options.sinks, log),
      onConnected: ({ reconnect }) => (reconnect ? sweep() : undefined),
      onGap: () => sweep(),
      onMarketLifecycle: (message) => {
        const notice = recordOf(message);
        if (notice?.event_type === 'settled' && typeof notice.market_ticker === 'string') options.sinks.marketSettled(notice.market_ticker);
      },
      staleAfterMs: options.stream?.staleAfterMs,
    });
    streams.push(stream);
    stream.start();
    return venue;
  }, options.decorate);
}

/** `user_order` messages of our orders whose state changed without a fill (fills come by the fill channel). */
async function recordOrderUpdates(messages: unknown[], ourOrders: OurOrders, sinks: KalshiAccountSinks, log: Logger) {
  for (const message of messages) {
    const state = stateFromRestOrder(message);
    if (state === null || state.status === 'open') continue;
    // Only our orders of this subaccount: another program trading with the same key has its own ids.
    if ((await ourOrders.byClientOrderId(state.clientOrderId).catch(() => null)) === null) continue;
    await sinks.recordState(state.clientOrderId, state).catch((error: unknown) => log.warn({ err: error }, 'could not record an order update; reads reconcile'));
  }
}
