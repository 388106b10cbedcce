import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { useUnnamedStatements } from './sql';

export type Db = PrismaClient;

const pools = new WeakMap<Db, pg.Pool>();

/**
 * Prisma 7 runs its Wasm query compiler over a driver adapter: no native engine is involved. The
 * adapter runs on a `pg` pool of our own, which the order path also uses directly (sqlPoolOf) for
 * its few hottest statements; `$disconnect()` ends it. `embedded`: the URL is the embedded PGlite's.
 */
export function createPrismaClient(url: string, poolSize = 10, options: { embedded?: boolean; connectTimeoutMs?: number } = {}): Db {
  // pipeline: a transaction's statements that do not wait for each other go out in one write (sql.ts).
  // PGlite's socket server runs every connection on one session, one statement at a time: there,
  // no named statements (one connection's would already exist on the next) and no pipelining.
  // connectionTimeoutMillis: a database that does not answer (a host gone, a full pool) fails the
  // request in bounded time, as 503 service_unavailable (unavailable.ts), instead of hanging it.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, pipeline: !options.embedded, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000 });
  if (options.embedded) useUnnamedStatements(pool);
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  // 'minimal': no stack captured per query (5% of a request's CPU), and error texts stay short.
  const client = new PrismaClient({ adapter, errorFormat: 'minimal' });
  pools.set(client, pool);
  return client;
}

/** The `pg` pool under a client of createPrismaClient: the same connections, without Prisma's query interpreter. */
export function sqlPoolOf(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('sqlPoolOf: this client was not made by createPrismaClient');
  return pool;
}
