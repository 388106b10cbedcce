import pino from 'pino';
import { currentRequestId } from './requestContext';

/** Paths that may carry secrets; pino replaces them before anything is written. */
const redact = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'privateKey',
  '*.privateKey',
  'private_key',
  '*.private_key',
  'api_secret',
  '*.api_secret',
  'api_passphrase',
  '*.api_passphrase',
  'tokenHash',
  '*.tokenHash',
  'headers.cookie',
  '*.headers.cookie',
  'token',
  '*.token',
  'credentials',
  '*.credentials',
];

export type Logger = pino.Logger;

/**
 * Errors are logged by type, code and message: never a stack trace, a query, a secret or the data
 * a statement was given. A database's refusal is logged with PostgreSQL's own code (SQLSTATE) and
 * message, found under Prisma's error (its driver adapter's cause) or as `pg` raised it.
 */
const serializeError = (error: unknown) => {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  const database = databaseCause(error);
  return {
    type: error.constructor.name,
    ...(code !== undefined ? { code } : {}),
    // Prisma repeats PostgreSQL's message, value included: the database's own words replace it.
    message: database?.message ?? firstMeaningfulLine(error.message),
    ...(database?.dbCode ? { dbCode: database.dbCode } : {}),
    ...(database?.dbKind ? { dbKind: database.dbKind } : {}),
  };
};

/** Prisma's messages start with an empty line and "Invalid `prisma.x()` invocation:"; the cause follows. */
function firstMeaningfulLine(message: string): string {
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !/^Invalid `.*` invocation:?$/.test(line));
  return (lines[0] ?? '').slice(0, 300);
}

interface PostgresCause {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
  originalMessage?: unknown;
  kind?: unknown;
  severity?: unknown;
}

/** PostgreSQL's code and message (without values) of a database error; undefined for any other error. */
function databaseCause(error: Error): { dbCode?: string; message?: string; dbKind?: string } | undefined {
  const adapter = (error as { meta?: { driverAdapterError?: { cause?: PostgresCause } } }).meta?.driverAdapterError?.cause;
  const pgError = error as PostgresCause;
  const cause = adapter ?? (typeof pgError.severity === 'string' ? pgError : undefined);
  if (!cause) return undefined;
  const dbCode = cause.originalCode ?? cause.code;
  const message = cause.originalMessage ?? cause.message;
  return {
    ...(typeof dbCode === 'string' ? { dbCode } : {}),
    ...(typeof message === 'string' ? { message: withoutValues(message) } : {}),
    ...(typeof cause.kind === 'string' ? { dbKind: cause.kind } : {}),
  };
}

/**
 * PostgreSQL names the offending value after a colon ('date/time field value out of range:
 * "0000-01-01"', 'invalid input syntax for type integer: "x"'); the words before it say what went
 * wrong, and only they are kept.
 */
function withoutValues(message: string): string {
  return message.split(': ')[0].slice(0, 300);
}

/** A logger to stdout, or to `destination` (a test that reads what was logged). */
export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    name,
    redact: { paths: redact, censor: '[redacted]' },
    serializers: { err: serializeError },
    // The request being served, if any (requestContext.ts); a line's own requestId takes precedence.
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
