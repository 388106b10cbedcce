/**
 * `npm run cli -- <command>`: administration from the command line, against DATABASE_URL or the
 * embedded database (also while `npm start` holds it: through its socket).
 *
 *   workspaces create <name>                                   prints the workspace id
 *   keys create --workspace <id> --env test|live [--rate-limit <per second>] [--name <name>]
 *                                                              prints the key id, then the secret alone on the last line
 *   keys revoke <key_id>
 *   dashboard-tokens create --workspace <id> [--read-only]     prints the token id, then the secret alone on the last line
 *   users create --workspace <id> --email <email> [--read-only]
 *                                                              prints the user id; the password comes from
 *                                                              MK_USER_PASSWORD or the first line of stdin
 *   users disable <user_id>                                    the user can no longer sign in; their sessions end at once
 *   credentials rewrap                                         re-seals every stored venue credential and webhook secret under
 *                                                              the current CREDENTIALS_KEK (key rotation); prints how many
 *   questions link --kalshi <ticker> --polymarket <condition id> [--by <name>]
 *                                                              states that the two live listings are one question (YES the
 *                                                              same outcome): complex orders then plan across both
 *   questions unlink --kalshi <ticker> | --polymarket <condition id>
 *   questions list                                             one line per link: kalshi:<ticker>, polymarket:<condition id>, who, when, titles
 *   --help, -h, help                                           this usage, on stdout (exit 0)
 *
 * A password is never taken from the arguments: the command line of a running process is readable
 * by every user of the machine (ps, /proc/<pid>/cmdline) and lands in shell history. The
 * environment of a process is readable only by its own user (and root), and stdin by nobody else.
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { applyMigrations } from '../core/db/migrate';
import { openDatabase } from '../core/db/openDatabase';
import { createPrismaClient, type Db } from '../core/db/prismaClient';
import { DomainError } from '../core/domain/errors';
import { createRevocationBus } from '../contract/revocationBus';
import { credentialKeysFor } from '../core/db/embeddedKek';
import { createApiKey, createDashboardToken, revokeApiKey } from '../core/services/accounts/apiKeys';
import { rewrapStoredCredentials } from '../core/services/accounts/credentials';
import { rewrapWebhookSecrets } from '../core/services/events/webhookEndpoints';
import { createUser, disableUser } from '../core/services/accounts/users';
import { linkQuestion, listQuestionLinks, unlinkQuestion, type QuestionLinkView } from '../core/services/catalog/questionLinks';
import { getWorkspace, createWorkspace } from '../core/services/accounts/workspaces';
import type { Config } from '../core/config';
import { configOrExit, exitWith } from './process';

const USAGE = `usage:
  npm run cli -- workspaces create <name>
  npm run cli -- keys create --workspace <id> --env test|live [--rate-limit <requests per second>] [--name <name>]
  npm run cli -- keys revoke <key_id>
  npm run cli -- dashboard-tokens create --workspace <id> [--read-only]
  npm run cli -- users create --workspace <id> --email <email> [--read-only]
      password: first line of stdin (piped), or MK_USER_PASSWORD; never an argument
  npm run cli -- users disable <user_id>
  npm run cli -- credentials rewrap
      needs CREDENTIALS_KEK (the new key) and CREDENTIALS_OLD_KEKS (every key a stored blob may be sealed under)
  npm run cli -- questions link --kalshi <ticker> --polymarket <condition id> [--by <name>]
  npm run cli -- questions unlink --kalshi <ticker> | --polymarket <condition id>
  npm run cli -- questions list`;

/** Longest first line read from stdin for a password (the policy allows 256 characters). */
const MAX_PASSWORD_LINE_BYTES = 4096;

class UsageError extends Error {}

/** The first line of stdin, without its line ending; null when stdin ends before any character. */
async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string | null> {
  let buffered = Buffer.alloc(0);
  for await (const chunk of stream) {
    buffered = Buffer.concat([buffered, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    const newline = buffered.indexOf(0x0a);
    if (newline >= 0) {
      buffered = buffered.subarray(0, newline);
      break;
    }
    if (buffered.length > MAX_PASSWORD_LINE_BYTES) break;
  }
  if (buffered.length > MAX_PASSWORD_LINE_BYTES) throw new UsageError(`the password line on stdin is longer than ${MAX_PASSWORD_LINE_BYTES} bytes`);
  const line = buffered.toString('utf8').replace(/\r$/, '');
  return line.length > 0 ? line : null;
}

/** MK_USER_PASSWORD when set, else the first line of stdin when it is not a terminal. */
async function readPassword(): Promise<string> {
  const fromEnv = process.env.MK_USER_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (process.stdin.isTTY) {
    throw new UsageError('users create reads the password from stdin (pipe it in) or from MK_USER_PASSWORD, never from the arguments');
  }
  const line = await readFirstLine(process.stdin);
  if (line === null) throw new UsageError('users create found no password: put it on the first line of stdin or in MK_USER_PASSWORD');
  return line;
}

async function execute(db: Db, config: Config, argv: string[]): Promise<string[]> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      env: { type: 'string' },
      'rate-limit': { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      'read-only': { type: 'boolean' },
      kalshi: { type: 'string' },
      polymarket: { type: 'string' },
      by: { type: 'string' },
      // Declared only to refuse it with a reason: see the comment at the top.
      password: { type: 'string' },
    },
  });
  if (values.password !== undefined) {
    throw new UsageError('--password is not accepted: arguments are visible to every user in the process list; pipe the password on stdin or set MK_USER_PASSWORD');
  }
  const [resource, action, ...rest] = positionals;
  const command = `${resource ?? ''} ${action ?? ''}`;
  switch (command) {
    case 'workspaces create': {
      if (rest.length === 0) throw new UsageError('workspaces create needs a name');
      const workspace = await createWorkspace(db, rest.join(' '));
      return [workspace.id];
    }
    case 'keys create': {
      if (!values.workspace) throw new UsageError('keys create needs --workspace <id>');
      if (values.env !== 'test' && values.env !== 'live') throw new UsageError('keys create needs --env test or --env live');
      const rateLimitText = values['rate-limit'];
      if (rateLimitText !== undefined && !/^\d+$/.test(rateLimitText)) throw new UsageError('--rate-limit is a whole number of requests per second');
      await getWorkspace(db, values.workspace);
      const { key, secret } = await createApiKey(db, {
        workspaceId: values.workspace,
        environment: values.env,
        name: values.name,
        rateLimit: rateLimitText === undefined ? undefined : Number(rateLimitText),
      }, { maxActive: config.API_KEYS_PER_WORKSPACE });
      return [`${key.id} (${key.environment}${key.rateLimit ? `, ${key.rateLimit} requests/s` : ''}); the secret below is shown once:`, secret];
    }
    case 'keys revoke': {
      const keyId = rest[0];
      if (!keyId) throw new UsageError('keys revoke needs a key id');
      const key = await db.apiKey.findUnique({ where: { id: keyId } });
      if (!key) throw new DomainError('not_found', `No API key with id '${keyId}'.`);
      // With Redis every gateway forgets the key at once; without it a running `npm start`
      // stops accepting it within AUTH_CACHE_TTL_MS (1 s by default).
      const bus = createRevocationBus(config.REDIS_URL);
      try {
        const { key: revoked, announced } = await revokeApiKey(db, bus, key.workspaceId, keyId);
        const done = `${revoked.id} revoked at ${revoked.revokedAt!.toISOString()}`;
        if (announced) return [done];
        return [
          done,
          'warning: gateways could not be told at once (Redis unavailable): a gateway that cannot hear revocations authenticates every request against the database; one that missed this message stops accepting the key within AUTH_CACHE_TTL_MS',
        ];
      } finally {
        await bus.close();
      }
    }
    case 'dashboard-tokens create': {
      if (!values.workspace) throw new UsageError('dashboard-tokens create needs --workspace <id>');
      await getWorkspace(db, values.workspace);
      const { token, secret } = await createDashboardToken(db, values.workspace, values['read-only'] ? 'read_only' : 'full');
      return [`${token.id}; the secret below is shown once:`, secret];
    }
    case 'users create': {
      if (!values.workspace) throw new UsageError('users create needs --workspace <id>');
      if (!values.email) throw new UsageError('users create needs --email <email>');
      if (rest.length > 0) throw new UsageError('users create takes no positional arguments; the password goes on stdin or in MK_USER_PASSWORD');
      const password = await readPassword();
      const user = await createUser(db, {
        workspaceId: values.workspace,
        email: values.email,
        password,
        scope: values['read-only'] ? 'read_only' : 'full',
      });
      return [user.id];
    }
    case 'users disable': {
      const userId = rest[0];
      if (!userId || rest.length > 1) throw new UsageError('users disable needs exactly one user id');
      const user = await disableUser(db, userId);
      return [`${user.id} (${user.email}) disabled at ${user.disabledAt!.toISOString()}; their sessions are ended`];
    }
    case 'credentials rewrap': {
      if (rest.length > 0) throw new UsageError('credentials rewrap takes no arguments');
      const keys = credentialKeysFor(config);
      if (!keys.current) throw new UsageError('credentials rewrap needs CREDENTIALS_KEK: the key every credential is re-sealed under');
      const { rewrapped } = await rewrapStoredCredentials(db, keys);
      const webhooks = await rewrapWebhookSecrets(db, keys);
      return [
        `${rewrapped} credential(s) re-sealed under KEK '${keys.current.id}'; keys no longer used by any row may be removed from CREDENTIALS_OLD_KEKS`,
        `${webhooks.rewrapped} webhook secret(s) re-sealed under KEK '${keys.current.id}'`,
      ];
    }
    case 'questions link': {
      if (!values.kalshi || !values.polymarket || rest.length > 0) throw new UsageError('questions link needs --kalshi <ticker> and --polymarket <condition id>');
      // The Polymarket condition takes the Kalshi ticker as its question key (a ticker is its own).
      const link = await linkQuestion(db, {
        listing: { venue: 'polymarket', venueMarketId: values.polymarket },
        anchor: { venue: 'kalshi', venueMarketId: values.kalshi },
        createdBy: values.by ?? operatorName(),
      });
      return [`linked ${describeLink(link)}`];
    }
    case 'questions unlink': {
      if (rest.length > 0 || (values.kalshi === undefined) === (values.polymarket === undefined)) {
        throw new UsageError('questions unlink needs exactly one of --kalshi <ticker> or --polymarket <condition id>');
      }
      const link = await unlinkQuestion(db, values.kalshi !== undefined ? { venue: 'kalshi', venueMarketId: values.kalshi } : { venue: 'polymarket', venueMarketId: values.polymarket! });
      return [`unlinked ${describeLink(link)}`];
    }
    case 'questions list': {
      if (rest.length > 0) throw new UsageError('questions list takes no arguments');
      const links = await listQuestionLinks(db);
      if (links.length === 0) return ['no question links'];
      return links.map((l) => [`${l.anchor.venue}:${l.anchor.venueMarketId}`, `${l.listing.venue}:${l.listing.venueMarketId}`, l.createdBy, l.createdAt.toISOString(), l.anchor.title ?? '-', l.listing.title ?? '-'].join('\t'));
    }
    default:
      throw new UsageError(command.trim() ? `unknown command '${command.trim()}'` : 'no command given');
  }
}

/** Who links, when `--by` is not given: the operator's login name. */
function operatorName(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

const describeLink = (link: QuestionLinkView) =>
  `${link.anchor.venue} ${link.anchor.venueMarketId} (${link.anchor.title ?? 'not in the catalog'}) <-> ${link.listing.venue} ${link.listing.venueMarketId} (${link.listing.title ?? 'not in the catalog yet: the next sync keys it'}), by ${link.createdBy}`;

/** `--help`, `-h` or `help`, anywhere: the usage on stdout and exit 0, without opening anything. */
const asksForHelp = (argv: string[]) => argv.some((arg) => arg === '--help' || arg === '-h') || argv[0] === 'help';

async function main(): Promise<number> {
  if (asksForHelp(process.argv.slice(2))) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = configOrExit();
  const database = await openDatabase(config);
  const db = createPrismaClient(database.url, 1, { embedded: database.embedded });
  try {
    await applyMigrations(database.url);
    const lines = await execute(db, config, process.argv.slice(2));
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      process.stderr.write(`error: ${(error as Error).message}\n${USAGE}\n`);
      return 64;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.$disconnect();
    await database.close();
  }
}

exitWith(main);
