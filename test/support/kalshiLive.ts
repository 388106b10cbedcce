/**
 * Live Kalshi through the public REST API, against the Kalshi fake (docs/kalshi-fake.md): key
 * pairs made at run time, a fake per Kalshi environment, a live workspace whose subaccount gets a
 * Kalshi credential attached with the dashboard token, and bounded polling.
 */
import { randomBytes } from 'node:crypto';
import type { KalshiKey } from './kalshiKeys';
import type { Db } from '../../core/db/prismaClient';
import { KalshiFake } from '../../fakes/kalshi/server';
import { ownDatabase } from './ownDatabase';
import { buildWorkspace } from './factories';
import { call } from './http';

export const FED = 'KXFAKEFED-26DEC-T4.00'; // the fake's default catalog: whole cents, whole contracts, taker fees only
export const HIGH = 'KXFAKEHIGH-26DEC31-T40'; // tapered deci-cent prices, fractional contracts, maker fees too
export const CREATE_PATH = '/trade-api/v2/portfolio/events/orders';


/** The lines of a PEM's base64 body: what a leak of the key would show. */
export const pemBodyLines = (pem: string) => pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));

/** The ways a secret could sit in a log, a response or a dump: as it is, hex, base64 (standard and url-safe). */
export function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [secret, bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];
}

export const MAKER = 'user-maker';

/**
 * A fake playing one Kalshi environment, with our accounts (one per key, $1000 each) and a maker
 * with deep pockets who plays the other participants (`placeOrderAs(MAKER, ...)`).
 */
export function startKalshiFake(environment: 'production' | 'demo', accounts: { userId: string; key: KalshiKey; balanceDollars?: string }[]) {
  return KalshiFake.start({
    environment,
    accounts: [
      ...accounts.map(({ userId, key, balanceDollars }) => ({ userId, balanceDollars: balanceDollars ?? '1000.00', keys: [{ keyId: key.keyId, publicKeyPem: key.publicKeyPem }] })),
      { userId: MAKER, balanceDollars: '100000.00' },
    ],
    pingIntervalMs: 200,
  });
}

/** A 32-byte key-encryption key, base64 (CREDENTIALS_KEK). */
export const newKek = () => randomBytes(32).toString('base64');

/**
 * The settings of a core that trades live against a production fake: a database of its own (the
 * start-up catalog sync closes every live Kalshi row the fake does not list), the fake's URLs, the
 * catalog synced at start-up, a fresh KEK; `overrides` on top.
 */
export async function liveCoreSettings(label: string, production: KalshiFake, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    DATABASE_URL: await ownDatabase(label),
    KALSHI_PRODUCTION_URL: production.baseUrl,
    KALSHI_PRODUCTION_WS_URL: production.wsUrl,
    KALSHI_CATALOG_SYNC_MS: '10000', // the start-up sync runs at once
    CREDENTIALS_KEK: newKek(),
    ...overrides,
  };
}

export interface LiveTrader {
  base: string;
  /** The live API key's secret (`mk_live_...`). */
  live: string;
  /** The workspace's dashboard token, which alone may attach credentials. */
  dashboard: string;
}

export async function newLiveTrader(db: Db, base: string, name = 'Kalshi live'): Promise<LiveTrader> {
  const { secret, dashboardSecret } = await buildWorkspace(db, { environment: 'live', rateLimit: 10_000, name });
  return { base, live: secret, dashboard: dashboardSecret };
}

/** A live subaccount created through REST; with `kalshi`, the credential attached through the dashboard route. */
export async function liveSubaccount(trader: LiveTrader, name: string, kalshi?: { key: KalshiKey; environment: 'production' | 'demo' }): Promise<string> {
  const created = await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.live, body: { name } });
  if (created.status !== 200) throw new Error(`could not create a live subaccount: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  if (kalshi) {
    const attached = await attachKalshi(trader, id, kalshi.key, kalshi.environment);
    if (attached.status !== 200) throw new Error(`could not attach the Kalshi credential: ${attached.status} ${JSON.stringify(attached.body)}`);
  }
  return id;
}

export const attachKalshi = (trader: LiveTrader, subaccountId: string, key: KalshiKey, environment: 'production' | 'demo') =>
  call(trader.base, 'PUT', `/v1/subaccounts/${subaccountId}/credentials/kalshi`, {
    key: trader.dashboard,
    headers: { 'x-environment': 'live' }, // a dashboard token picks the environment by header (test by default)
    body: { key_id: key.keyId, private_key: key.privateKeyPem, environment },
  });

export interface LiveOrder {
  subaccount_id: string;
  market_id: string;
  side: 'yes' | 'no';
  action: 'buy' | 'sell';
  type: 'limit' | 'market';
  price?: string;
  quantity: string;
  time_in_force?: 'gtc' | 'ioc' | 'fok' | 'gtd';
  expires_at?: string;
  post_only?: boolean;
  reduce_only?: boolean;
}

export const placeLive = (trader: LiveTrader, body: LiveOrder, headers: Record<string, string> = {}) =>
  call(trader.base, 'POST', '/v1/orders', { key: trader.live, body, headers });

/** Polls `probe` until it answers something other than undefined, at most `timeoutMs`; then fails naming `what`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The id of a live Kalshi market, once the core's start-up catalog sync has brought it in from the fake. */
export function liveMarketId(db: Db, ticker: string): Promise<string> {
  return eventually(`the live catalog sync bringing ${ticker}`, async () =>
    (await db.market.findFirst({ where: { environment: 'live', venue: 'kalshi', venueMarketId: ticker } }))?.id, 20_000);
}
