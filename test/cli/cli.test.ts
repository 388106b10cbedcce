import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { newId } from '../../core/domain/ids';
import { API_KEY_FORMAT, sha256Hex } from '../../contract/secrets';
import { databaseUrl } from '../support/env';
import { buildApiKey } from '../support/factories';
import { closedPort } from '../support/http';
import { expectUsageRefusal, runProcess, STACK_FRAME, type ProcessOutcome } from '../support/processes';

/**
 * The administration CLI as a real process against the run's database. Each start of a Node process costs a
 * second or two, so the error cases run side by side while the happy path runs in order.
 */
const SLOW = 120_000;

const cli = (args: string[], env: Record<string, string> = {}): Promise<ProcessOutcome> =>
  runProcess('bin/cli.ts', args, { DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent', ...env });

let db: Db;
/** The failure cases, started at once in beforeAll and awaited by their tests. */
let failures: Record<string, Promise<ProcessOutcome>>;

beforeAll(() => {
  db = createPrismaClient(databaseUrl(), 2);
  // One after another, beside the in-order tests: two processes at a time is what the machine
  // runs fastest, and jest does not wait for these before starting the tests.
  let queue: Promise<unknown> = Promise.resolve();
  const queued = (args: string[], env?: Record<string, string>) => {
    const outcome = queue.then(() => cli(args, env));
    queue = outcome;
    return outcome;
  };
  failures = {
    badConfig: queued(['workspaces', 'create', 'Acme'], { DATABASE_URL: 'not-a-url' }),
    noCommand: queued([]),
    unknownCommand: queued(['workspaces', 'destroy', 'ws_x']),
    badEnv: queued(['keys', 'create', '--workspace', 'ws_x', '--env', 'prod']),
    noWorkspace: queued(['keys', 'create', '--env', 'test']),
    missingOptionValue: queued(['keys', 'create', '--workspace', 'ws_x', '--env', 'test', '--rate-limit']),
    linkOneSide: queued(['questions', 'link', '--kalshi', 'KXCLI-ONE']),
    help: queued(['--help'], { DATABASE_URL: 'not-a-url' }),
    commandHelp: queued(['keys', 'create', '-h']),
  };
});
afterAll(async () => {
  await Promise.all(Object.values(failures));
  await db.$disconnect();
});

describe('workspaces and keys, in order', () => {
  let workspaceId: string;
  let keyId: string;

  it('`workspaces create Acme` prints the workspace id alone and exits 0', async () => {
    const result = await cli(['workspaces', 'create', 'Acme']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ws_[0-9a-z]{26}\n$/);
    workspaceId = result.stdout.trim();
    const row = await db.workspace.findUnique({ where: { id: workspaceId } });
    expect(row).toMatchObject({ id: workspaceId, name: 'Acme', tradingHalted: false });
  }, SLOW);

  it('`keys create` prints the key id first and the secret alone last; only its SHA-256 is stored', async () => {
    const result = await cli(['keys', 'create', '--workspace', workspaceId, '--env', 'test', '--rate-limit', '5']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.replace(/\n$/, '').split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    keyId = lines[0].split(/\s/)[0];
    expect(keyId).toMatch(/^key_[0-9a-z]{26}$/);
    const secret = lines[lines.length - 1];
    expect(secret).toMatch(API_KEY_FORMAT);
    expect(secret.startsWith('mk_test_')).toBe(true);

    const key = await db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(key).toMatchObject({ workspaceId, environment: 'test', rateLimit: 5, revokedAt: null });
    expect(key.secretHash).toBe(sha256Hex(secret));
    // Nothing in the stored row, in any column, holds the secret or its random part.
    const [stored] = await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(k)::text AS row FROM api_keys k WHERE id = ${keyId}`;
    expect(stored.row).toContain(sha256Hex(secret));
    expect(stored.row).not.toContain(secret);
    expect(stored.row).not.toContain(secret.slice('mk_test_'.length));
    expect(stored.row).not.toContain(secret.slice('mk_test_'.length, 'mk_test_'.length + 12));
  }, SLOW);

  it('`keys revoke <key_id>` sets revoked_at', async () => {
    const before = Date.now();
    const result = await cli(['keys', 'revoke', keyId]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(keyId);
    const key = await db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(key.revokedAt).toBeInstanceOf(Date);
    expect(key.revokedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(key.revokedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  }, SLOW);

  it('`keys revoke` with Redis unreachable: revoked all the same, a warning that the gateways could not be told at once, exit 0', async () => {
    const { key } = await buildApiKey(db, (await db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).workspaceId, 'test');
    const result = await cli(['keys', 'revoke', key.id], { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const [done, warning] = result.stdout.trim().split('\n');
    expect(done).toMatch(new RegExp(`^${key.id} revoked at `));
    expect(warning).toMatch(/^warning: gateways could not be told at once \(Redis unavailable\)/);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeInstanceOf(Date);
  }, SLOW);

  it('`keys revoke` of an unknown key exits non-zero with one clear line', async () => {
    const result = await cli(['keys', 'revoke', 'key_01zzzzzzzzzzzzzzzzzzzzzzzz']);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*key_01zzzzzzzzzzzzzzzzzzzzzzzz.*\n$/);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  }, SLOW);
});

describe('--help, -h and help print the usage on stdout and exit 0', () => {
  it.each([
    ['--help (before any configuration is read)', 'help'],
    ['keys create -h', 'commandHelp'],
  ])('%s', async (_name, which) => {
    const result = await failures[which]!;
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^usage:\n {2}npm run cli -- workspaces create <name>\n/);
    expect(result.stdout).toContain('keys create --workspace <id> --env test|live');
  }, SLOW);
});

describe('bad usage exits 64 with the usage on stderr, without a stack trace', () => {
  it.each([
    ['no command', 'noCommand', /no command/],
    ['an unknown command', 'unknownCommand', /unknown command 'workspaces destroy'/],
    ['--env prod', 'badEnv', /--env test or --env live/],
    ['keys create without --workspace', 'noWorkspace', /--workspace/],
    ['an option without its value (--rate-limit)', 'missingOptionValue', /rate-limit/],
    ['questions link without --polymarket', 'linkOneSide', /questions link needs --kalshi <ticker> and --polymarket <condition id>/],
  ])('%s', async (_name, which, reason) => {
    expectUsageRefusal(await failures[which], reason, 'keys create --workspace <id> --env test|live');
  }, SLOW);
});

describe('questions link, list and unlink, in order', () => {
  // Live listings of this test alone in the run's database.
  const ticker = 'KXCLILINK-26DEC-T1';
  const conditionId = `0x${'c1'.repeat(32)}`;
  const polymarketKey = async () => (await db.market.findFirstOrThrow({ where: { venue: 'polymarket', venueMarketId: conditionId } })).questionKey;

  beforeAll(async () => {
    const listing = { environment: 'live' as const, category: 'economics', tickSize: '0.01', minSize: '1' };
    await db.market.create({ data: { ...listing, id: newId('market'), venue: 'kalshi', venueMarketId: ticker, questionKey: ticker, title: 'Fed above 4% (Kalshi)?' } });
    await db.market.create({ data: { ...listing, id: newId('market'), venue: 'polymarket', venueMarketId: conditionId, title: 'Fed above 4% (Polymarket)?', yesTokenId: '1', noTokenId: '2' } });
  });

  it('`questions link` names both listings and who linked them; the Polymarket row is keyed with the ticker', async () => {
    const result = await cli(['questions', 'link', '--kalshi', ticker, '--polymarket', conditionId.toUpperCase().replace('0X', '0x'), '--by', 'alice']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`linked kalshi ${ticker} (Fed above 4% (Kalshi)?) <-> polymarket ${conditionId} (Fed above 4% (Polymarket)?), by alice\n`);
    expect(await db.questionLink.findUnique({ where: { venue_venueMarketId: { venue: 'polymarket', venueMarketId: conditionId } } })).toMatchObject({
      anchorVenue: 'kalshi', anchorMarketId: ticker, questionKey: ticker, createdBy: 'alice',
    });
    expect(await polymarketKey()).toBe(ticker);
  }, SLOW);

  it('`questions list` prints one tab-separated line per link', async () => {
    const result = await cli(['questions', 'list']);
    expect(result.code).toBe(0);
    const line = result.stdout.split('\n').find((l) => l.startsWith(`kalshi:${ticker}\t`));
    expect(line?.split('\t')).toEqual([`kalshi:${ticker}`, `polymarket:${conditionId}`, 'alice', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), 'Fed above 4% (Kalshi)?', 'Fed above 4% (Polymarket)?']);
  }, SLOW);

  it('a second link of the same ticker to another condition exits 1 with one line; the first link stands', async () => {
    const result = await cli(['questions', 'link', '--kalshi', ticker, '--polymarket', `0x${'c2'.repeat(32)}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: Already linked: kalshi ${ticker} <-> polymarket ${conditionId}; unlink it first.\n`);
    expect(await polymarketKey()).toBe(ticker);
  }, SLOW);

  it('`questions unlink --polymarket` removes the link and the key', async () => {
    const result = await cli(['questions', 'unlink', '--polymarket', conditionId]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^unlinked kalshi ${ticker} `));
    expect(await db.questionLink.count({ where: { anchorVenue: 'kalshi', anchorMarketId: ticker } })).toBe(0);
    expect(await polymarketKey()).toBeNull();
  }, SLOW);
});

describe('bad configuration', () => {
  it('DATABASE_URL=not-a-url prints one line `invalid configuration: ...` naming it and exits 2', async () => {
    const result = await failures.badConfig;
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^invalid configuration: DATABASE_URL\b[^\n]*\n$/);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  }, SLOW);
});
