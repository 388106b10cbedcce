import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction, and
 * records them in Prisma's own `_prisma_migrations` table, so `prisma migrate deploy` (where it can
 * run) sees the same history. A migration edited after it was applied stops start-up.
 */
export async function applyMigrations(url: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(CREATE_MIGRATIONS_TABLE);
    // Replicas starting together apply each migration once.
    await client.query('SELECT pg_advisory_lock(72707369)');
    try {
      return await applyPending(client, dir);
    } finally {
      await client.query('SELECT pg_advisory_unlock(72707369)');
    }
  } finally {
    await client.end();
  }
}

async function applyPending(client: Client, dir: string): Promise<string[]> {
  const applied = new Map<string, string>();
  const rows = await client.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  for (const row of rows.rows) applied.set(row.migration_name, row.checksum);

  const newlyApplied: string[] = [];
  for (const migration of listMigrations(dir)) {
    const checksum = createHash('sha256').update(migration.sql).digest('hex');
    const previous = applied.get(migration.name);
    if (previous !== undefined) {
      if (previous !== checksum) {
        throw new Error(`migration ${migration.name} was modified after it was applied`);
      }
      continue;
    }
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), checksum, migration.name],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
    }
    newlyApplied.push(migration.name);
  }
  return newlyApplied;
}

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') }));
}

// Prisma's own definition, so that its CLI accepts the history we write.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
