/**
 * Runs the Kalshi fake standalone, with its control API on (see docs/kalshi-fake.md):
 *
 *   npx tsx fakes/kalshi/start.ts
 *
 * Environment:
 *   KALSHI_FAKE_HOST         default 127.0.0.1
 *   KALSHI_FAKE_PORT         default 8787 (0 picks a free port)
 *   KALSHI_FAKE_ENVIRONMENT  production (default) | demo — a label; run two fakes for both
 *   KALSHI_FAKE_CONFIG       path to a JSON file:
 *     { "rate_tier": "basic",
 *       "catalog": { "series": [...], "markets": [...] },          (optional, default seed)
 *       "accounts": [ { "user_id": "u1", "balance_dollars": "1000.00",
 *                       "keys": [ { "key_id": "...", "public_key_pem": "-----BEGIN PUBLIC KEY-----..." }
 *                               | { "key_id": "...", "public_key_file": "keys/u1.pub.pem" } ] } ] }
 *   KALSHI_FAKE_KEY_ID + KALSHI_FAKE_PUBLIC_KEY_FILE  a one-key shorthand (account "user-1", $1000)
 *   KALSHI_FAKE_SEED_BOOKS   true (default) | false: every market's book starts with the fake market
 *                            maker's resting bids and asks around the market's mid (marketMaker.ts;
 *                            a catalog market's mid is its `fake_mid_dollars`, 0.50 when absent)
 *
 * Only public keys are configured; the fake never sees a private key.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CatalogSeed } from './markets';
import { RATE_TIERS } from './rateLimits';
import { KalshiFake, type FakeAccount } from './server';

interface ConfigFile {
  readonly rate_tier?: keyof typeof RATE_TIERS;
  readonly catalog?: CatalogSeed;
  readonly accounts?: ReadonlyArray<{
    readonly user_id: string;
    readonly balance_dollars?: string;
    readonly keys?: ReadonlyArray<{ readonly key_id: string; readonly public_key_pem?: string; readonly public_key_file?: string }>;
  }>;
}

function loadConfig(): { config: ConfigFile; baseDir: string } {
  const path = process.env.KALSHI_FAKE_CONFIG;
  if (path === undefined || path === '') return { config: {}, baseDir: process.cwd() };
  const absolute = resolve(path);
  return { config: JSON.parse(readFileSync(absolute, 'utf8')) as ConfigFile, baseDir: dirname(absolute) };
}

function accountsFrom(config: ConfigFile, baseDir: string): FakeAccount[] {
  const accounts: FakeAccount[] = (config.accounts ?? []).map((a) => ({
    userId: a.user_id,
    balanceDollars: a.balance_dollars,
    keys: (a.keys ?? []).map((k) => ({
      keyId: k.key_id,
      publicKeyPem: k.public_key_pem ?? readFileSync(resolve(baseDir, k.public_key_file ?? ''), 'utf8'),
    })),
  }));
  const keyId = process.env.KALSHI_FAKE_KEY_ID;
  const keyFile = process.env.KALSHI_FAKE_PUBLIC_KEY_FILE;
  if (keyId !== undefined && keyFile !== undefined) {
    accounts.push({ userId: 'user-1', balanceDollars: '1000.00', keys: [{ keyId, publicKeyPem: readFileSync(resolve(keyFile), 'utf8') }] });
  }
  return accounts;
}

function seedBooksFromEnv(): boolean {
  const value = (process.env.KALSHI_FAKE_SEED_BOOKS ?? 'true').trim().toLowerCase();
  if (value === 'true' || value === '1' || value === '') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`KALSHI_FAKE_SEED_BOOKS must be true or false, got ${process.env.KALSHI_FAKE_SEED_BOOKS}`);
}

async function main(): Promise<void> {
  const { config, baseDir } = loadConfig();
  const environment = process.env.KALSHI_FAKE_ENVIRONMENT === 'demo' ? 'demo' : 'production';
  const tier = RATE_TIERS[config.rate_tier ?? 'basic'];
  if (tier === undefined) throw new Error(`unknown rate_tier ${String(config.rate_tier)}`);
  const fake = await KalshiFake.start({
    environment,
    host: process.env.KALSHI_FAKE_HOST ?? '127.0.0.1',
    port: Number(process.env.KALSHI_FAKE_PORT ?? 8787),
    catalog: config.catalog,
    accounts: accountsFrom(config, baseDir),
    rateTier: tier,
    controlApi: true,
    seedBooks: seedBooksFromEnv(),
  });
  process.stdout.write(`Kalshi fake (${environment}) REST ${fake.baseUrl}  WebSocket ${fake.wsUrl}  control ${fake.origin}/_fake/\n`);
  const seeded = fake.exchange.restingOrderIds(fake.marketMaker, undefined, undefined).length;
  process.stdout.write(
    seeded > 0
      ? `Books seeded: ${seeded} resting orders of the market maker "${fake.marketMaker}" (KALSHI_FAKE_SEED_BOOKS=false for empty books)\n`
      : 'Books empty (KALSHI_FAKE_SEED_BOOKS=false)\n',
  );
  const stop = (): void => {
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Kalshi fake failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
