import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

const pools = new WeakMap<Db, pg.Pool>();

/**
 * Prisma 7 runs its Wasm query compiler over a driver adapter: no native engine is involved. The
 * adapter runs on a `pg` pool of our own, which the order path also uses directly (sqlPoolOf) for
 * its few hottest statements; `$disconnect()` ends it.
 */
export function createPrismaClient(url: string, poolSize = 10): Db {
  // pipeline: a transaction's statements that do not wait for each other go out in one write (sql.ts).
  const pool = new pg.Pool({ connectionString: url, max: poolSize, pipeline: true });
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
