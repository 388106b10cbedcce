import { createPrismaClient, type Db } from '../../core/db/prismaClient';
import { verifyPassword } from '../../core/domain/passwords';
import { createWorkspace } from '../../core/services/accounts/workspaces';
import { databaseUrl } from '../support/env';
import { expectUsageRefusal, runProcess, STACK_FRAME, type ProcessOutcome } from '../support/processes';

/**
 * `users create` as a real process against the run's database, with the password on stdin or in
 * MK_USER_PASSWORD. As in cli.test.ts, the failure cases are started in beforeAll, one after
 * another, beside the in-order happy path.
 */
const SLOW = 120_000;

/** Runs the CLI; `stdin` (when given) is written to its stdin. MK_USER_PASSWORD only when given. */
const cli = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<ProcessOutcome> =>
  runProcess('bin/cli.ts', args, { DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent', MK_USER_PASSWORD: undefined, ...options.env }, { stdin: options.stdin });

const run = `${Date.now().toString(36)}${process.pid}`;
const email = (name: string) => `${name}.${run}@example.com`;
const PASSWORD = 'piped in on stdin, 2 words';
const ENV_PASSWORD = 'from the environment 42';

let db: Db;
let workspaceId: string;
let failures: Record<string, Promise<ProcessOutcome>>;

beforeAll(async () => {
  db = createPrismaClient(databaseUrl(), 2);
  workspaceId = (await createWorkspace(db, 'CLI users')).id;
  let queue: Promise<unknown> = Promise.resolve();
  const queued = (args: string[], options?: { stdin?: string; env?: Record<string, string> }) => {
    const outcome = queue.then(() => cli(args, options));
    queue = outcome;
    return outcome;
  };
  failures = {
    noWorkspace: queued(['users', 'create', '--email', email('x')], { stdin: `${PASSWORD}\n` }),
    noEmail: queued(['users', 'create', '--workspace', workspaceId], { stdin: `${PASSWORD}\n` }),
    passwordArgument: queued(['users', 'create', '--workspace', workspaceId, '--email', email('argv'), '--password', PASSWORD]),
    positionalPassword: queued(['users', 'create', '--workspace', workspaceId, '--email', email('argv2'), PASSWORD]),
    noPassword: queued(['users', 'create', '--workspace', workspaceId, '--email', email('nopass')]),
    emptyLine: queued(['users', 'create', '--workspace', workspaceId, '--email', email('empty')], { stdin: '\nsecond line is not read\n' }),
    unknownWorkspace: queued(['users', 'create', '--workspace', 'ws_01zzzzzzzzzzzzzzzzzzzzzzzz', '--email', email('orphan')], { stdin: `${PASSWORD}\n` }),
    weakPassword: queued(['users', 'create', '--workspace', workspaceId, '--email', email('weak')], { stdin: 'too short\n' }),
  };
});
afterAll(async () => {
  await Promise.all(Object.values(failures));
  await db.$disconnect();
});

describe('users create, in order', () => {
  let userId: string;

  it('with the password on the first line of stdin: prints the user id alone and exits 0', async () => {
    const result = await cli(['users', 'create', '--workspace', workspaceId, '--email', email('Piped').toUpperCase()], {
      stdin: `${PASSWORD}\r\nthe second line is ignored\n`,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usr_[0-9a-z]{26}\n$/);
    userId = result.stdout.trim();

    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ workspaceId, email: email('piped'), scope: 'full', disabledAt: null });
    expect(user.passwordHash.startsWith('scrypt$')).toBe(true);
    expect(user.passwordHash).not.toContain(PASSWORD);
    await expect(verifyPassword(PASSWORD, user.passwordHash)).resolves.toBe(true);
    await expect(verifyPassword(`${PASSWORD}\r`, user.passwordHash)).resolves.toBe(false);
  }, SLOW);

  it('with --read-only and MK_USER_PASSWORD: a read-only user with that password', async () => {
    const result = await cli(['users', 'create', '--workspace', workspaceId, '--email', email('reader'), '--read-only'], {
      env: { MK_USER_PASSWORD: ENV_PASSWORD },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usr_[0-9a-z]{26}\n$/);
    const user = await db.user.findUniqueOrThrow({ where: { id: result.stdout.trim() } });
    expect(user).toMatchObject({ email: email('reader'), scope: 'read_only' });
    await expect(verifyPassword(ENV_PASSWORD, user.passwordHash)).resolves.toBe(true);
  }, SLOW);

  it('the same email again is a conflict: one clear line, non-zero, no password echoed', async () => {
    const result = await cli(['users', 'create', '--workspace', workspaceId, '--email', email('piped')], { stdin: `${PASSWORD}\n` });
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBe(64);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .*already exists.*\n$/);
    expect(result.stderr).toContain(email('piped'));
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toContain(PASSWORD);
    expect(await db.user.count({ where: { email: email('piped') } })).toBe(1);
  }, SLOW);
});

describe('domain errors: one line, non-zero, not the usage', () => {
  it.each([
    ['an unknown workspace', 'unknownWorkspace', /ws_01zzzzzzzzzzzzzzzzzzzzzzzz/],
    ['a password against the policy', 'weakPassword', /password must be at least 12 characters/],
  ])('%s', async (_name, which, reason) => {
    const result = await failures[which];
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).not.toContain('usage:');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  }, SLOW);

  it('nothing was stored for them', async () => {
    await Promise.all([failures.unknownWorkspace, failures.weakPassword]);
    expect(await db.user.count({ where: { email: { in: [email('orphan'), email('weak')] } } })).toBe(0);
  }, SLOW);
});

describe('bad usage exits 64 with the usage on stderr, without a stack trace', () => {
  it.each([
    ['users create without --workspace', 'noWorkspace', /users create needs --workspace/],
    ['users create without --email', 'noEmail', /users create needs --email/],
    ['a password given as --password', 'passwordArgument', /--password is not accepted.*process list/],
    ['a password given as a positional argument', 'positionalPassword', /no positional arguments/],
    ['no password: stdin empty and no MK_USER_PASSWORD', 'noPassword', /no password/],
    ['an empty first line on stdin', 'emptyLine', /no password/],
  ])('%s', async (_name, which, reason) => {
    const result = await failures[which];
    expectUsageRefusal(result, reason, 'users create --workspace <id> --email <email> [--read-only]');
    expect(result.stderr).not.toContain(PASSWORD);
  }, SLOW);

  it('no user was created by any of them', async () => {
    await Promise.all(Object.values(failures));
    const emails = ['x', 'argv', 'argv2', 'nopass', 'empty'].map(email);
    expect(await db.user.count({ where: { email: { in: emails } } })).toBe(0);
    expect(await db.user.count({ where: { workspaceId } })).toBe(2);
  }, SLOW);
});
