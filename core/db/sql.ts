import { createHash } from 'node:crypto';
import type pg from 'pg';
import { Prisma } from '../generated/prisma/client';

/**
 * The order path's statements, sent over `pg` directly (sqlPoolOf) instead of through Prisma's query
 * interpreter, which costs ~0.7 ms of CPU per query (bench/README.md). Each statement is written
 * with `Prisma.sql` (the same bind parameters and fragments as elsewhere) and sent as a named
 * prepared statement, so PostgreSQL parses and plans its text once per connection. Rows come back as
 * Prisma would return them: camelCase fields, numeric columns as Prisma.Decimal, timestamps as Date.
 */
export type SqlClient = Pick<pg.Pool | pg.PoolClient, 'query'>;

const NUMERIC_OID = 1700;
const statementNames = new Map<string, string>();

function nameOf(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Pools and connections whose connections share one database session (PGlite's socket server
 * serves every connection on its one session): a named statement prepared on one connection would
 * already exist on the next, so their statements go unnamed, parsed every time.
 */
const sharedSession = new WeakSet<object>();

export function useUnnamedStatements(pool: pg.Pool): void {
  sharedSession.add(pool);
}

/** Whether statements sent together travel together: not on a shared session (PGlite), where each waits for the one before. */
export const pipelines = (client: SqlClient): boolean => !sharedSession.has(client);

/** One statement for `client.query`: named (prepared once per connection) unless the session is shared. */
export function statementFor(client: SqlClient, name: string, text: string, values: unknown[]): pg.QueryConfig {
  return sharedSession.has(client) ? { text, values } : { name, text, values };
}

const prepared = (client: SqlClient, name: string, statement: Prisma.Sql) =>
  client.query(statementFor(client, name, statement.text, statement.values as unknown[]));

/**
 * Runs one statement as a named prepared statement; rows as `pg` gives them (column names as they
 * are, numeric as strings). For statements whose text is fixed (a statement per text is prepared on
 * every connection): no lists of varying length. Columns are named, never `*`: PostgreSQL refuses a
 * prepared `*` once a column is added (`cached plan must not change result type`).
 */
export async function queryPlain<T>(client: SqlClient, statement: Prisma.Sql): Promise<T[]> {
  return (await prepared(client, nameOf(statement.text), statement)).rows as T[];
}

type FieldMapping = { from: string; to: string; numeric: boolean }[];
const fieldMappings = new Map<string, FieldMapping>();

/** How a statement's columns become fields: worked out once per statement (its columns do not change). */
function fieldMappingOf(name: string, fields: pg.FieldDef[]): FieldMapping {
  let mapping = fieldMappings.get(name);
  if (!mapping || mapping.length !== fields.length) {
    mapping = fields.map((field) => ({ from: field.name, to: camelCase(field.name), numeric: field.dataTypeID === NUMERIC_OID }));
    fieldMappings.set(name, mapping);
  }
  return mapping;
}

/** Runs one statement as a named prepared statement; rows as Prisma would give them. */
export async function queryRows<T>(client: SqlClient, statement: Prisma.Sql): Promise<T[]> {
  const name = nameOf(statement.text);
  const result = await prepared(client, name, statement);
  const fields = fieldMappingOf(name, result.fields);
  return result.rows.map((row: Record<string, unknown>) => {
    const mapped: Record<string, unknown> = {};
    for (const { from, to, numeric } of fields) {
      const value = row[from];
      mapped[to] = numeric && value !== null ? new Prisma.Decimal(value as string) : value;
    }
    return mapped as T;
  });
}

/** The one row a statement returns, or undefined. */
export async function queryRow<T>(client: SqlClient, statement: Prisma.Sql): Promise<T | undefined> {
  return (await queryRows<T>(client, statement))[0];
}

/** A transaction on one pipelining connection (createPrismaClient's pool: `pipeline: true`). */
export interface Transaction {
  /**
   * Starts the statements `issue` sends (without awaiting them in between) in one write to
   * PostgreSQL, behind whatever was sent before, BEGIN included: they are answered in one round
   * trip, in order. A statement that depends on an earlier one's effect (a row lock) may follow it
   * in the same write: PostgreSQL runs them one after another, each with its own snapshot.
   * `outside`, on the first call only: a statement sent ahead of BEGIN in the same write, which is
   * not part of the transaction (it commits on its own, whatever the transaction does).
   */
  together<R>(issue: (client: SqlClient) => R, outside?: (client: SqlClient) => unknown): R;
  /**
   * Sends COMMIT behind what was sent (inside `together`, in the same write). Await every statement
   * sent with it: after a failed statement PostgreSQL answers COMMIT with a ROLLBACK, not an error.
   */
  commit(client: SqlClient): Promise<void>;
}

/**
 * Runs `work` in a transaction on one connection of the pool: committed when it resolves (unless it
 * committed itself), rolled back when it throws. Its prepared statements run on generic plans
 * (`plan_cache_mode`, for this transaction only, sent with BEGIN): PostgreSQL otherwise keeps
 * re-planning a statement whose custom plans it estimates cheaper, and planning the pre-trade
 * statement costs ~0.5 ms, more than running it. The statements of the order path are lookups by
 * key, whose generic plan is the custom one.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  if (sharedSession.has(pool)) sharedSession.add(client);
  // The pool listens for a checked-out client's errors no more: a connection lost mid-transaction
  // (a PostgreSQL restart) would otherwise be an unhandled 'error' event, which ends the process.
  // Its queries fail with the error; the connection is not given back.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  // The connection's socket, corked while `together` starts its statements so that they leave in
  // one write (pg itself corks each statement alone). pg's `connection` is not typed; without a
  // socket to cork, the statements still go out back to back, only in several writes.
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  let begun: Promise<unknown> | undefined;
  let committed: Promise<void> | undefined;
  let broken: unknown;
  const tx: Transaction = {
    together(issue, outside) {
      if (outside && begun) throw new Error('a statement outside the transaction goes only ahead of its BEGIN');
      stream?.cork?.();
      try {
        if (!begun) {
          outside?.(client);
          begun = client.query('BEGIN; SET LOCAL plan_cache_mode = force_generic_plan');
          begun.catch(() => undefined); // awaited below; its failure also fails every statement after it
        }
        return issue(client);
      } finally {
        stream?.uncork?.();
      }
    },
    commit(sql) {
      committed = sql.query('COMMIT').then((result) => {
        // After a failed statement PostgreSQL answers COMMIT with ROLLBACK, and no error.
        if (result.command !== 'COMMIT') throw new Error(`the transaction was not committed (${result.command})`);
      });
      return committed;
    },
  };
  try {
    const result = await work(tx);
    await begun;
    await (committed ?? tx.together((sql) => tx.commit(sql)));
    return result;
  } catch (error) {
    await begun?.catch(() => undefined);
    await committed?.catch(() => undefined);
    // After a failed statement PostgreSQL turns COMMIT into ROLLBACK; a ROLLBACK outside a transaction only warns.
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError; // the connection is in an unknown state: do not give it back to the pool
    });
    throw error;
  } finally {
    client.removeListener('error', onError);
    const unusable = lost ?? (broken instanceof Error ? broken : undefined);
    client.release(unusable);
  }
}

/**
 * Waits for every statement of one write and gives their results in order, or throws the error of
 * the first one that failed, in the order they were sent (not the first to settle): a statement's
 * own error, not the "transaction was not committed" of the COMMIT behind it.
 */
export async function allInOrder<T extends readonly unknown[]>(statements: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * When a write's own transaction returns from COMMIT:
 * - `flushed` (PostgreSQL's default): once its WAL is on disk;
 * - `by_next_write`: at once (synchronous_commit off, for that transaction alone), for a write that
 *   the same request follows with a flushed one before it answers. The WAL is one sequence, so that
 *   flushed COMMIT puts every record written before it on disk, this one included: by the time the
 *   client is answered both are durable, one wait on the disk instead of two. Visible to other
 *   sessions at once either way. Only a crash in between can lose such a write, and then the
 *   request was never answered; each user of it says why that state is one the service recovers
 *   from (the Idempotency-Key's claim; an order's status after the venue's answer).
 */
export type CommitWait = 'flushed' | 'by_next_write';

/**
 * What makes a statement's own (implicit) transaction commit without waiting for the disk: the CTE
 * `with`, put before the statement, which the statement must join (`from`: an INSERT's SELECT or an
 * UPDATE's FROM) for it to be evaluated, once (MATERIALIZED). `set_config(..., true)` holds to the
 * end of the transaction, and COMMIT reads synchronous_commit before it is reset.
 */
export const NO_FLUSH_WAIT = {
  with: "WITH no_flush_wait AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS setting)",
  from: 'no_flush_wait',
} as const;

/** PostgreSQL's unique_violation, as `pg` reports it. */
export const isUniqueViolation = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === '23505';
