import { Client } from 'pg';
import { applyMigrations } from '../../core/db/migrate';
import { ADMIN_URL } from './globalSetup';

/**
 * A fresh, migrated database of the run for one suite alone, named after the run's database (so
 * globalTeardown drops it too). For suites whose background work reads every row of a kind, such as
 * the live reconciler, which claims every live order it finds: in the shared database it would
 * reach into other suites' orders.
 */
export async function ownDatabase(label: string): Promise<string> {
  const shared = process.env.TEST_DATABASE_NAME;
  if (!shared) throw new Error('TEST_DATABASE_NAME is set by test/support/globalSetup.ts');
  const name = `${shared}_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return url.toString();
}
