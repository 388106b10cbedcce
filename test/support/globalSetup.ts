import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { applyMigrations } from '../../core/db/migrate';

/**
 * One fresh PostgreSQL database per test run, migrated, dropped in globalTeardown. Test files
 * share it and stay apart by creating their own workspaces.
 */
export const ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export default async function globalSetup(): Promise<void> {
  buildEntryPoints();
  const name = `mkapi_test_${Date.now()}_${process.pid}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  process.env.TEST_DATABASE_NAME = name;
  process.env.TEST_DATABASE_URL = url.toString();
  process.env.TEST_REDIS_URL ??= 'redis://127.0.0.1:6379';
  await applyMigrations(process.env.TEST_DATABASE_URL);
}

/**
 * Suites that start a real process run the compiled entry points (dist/), as production does:
 * build them first, incrementally, so that no run of jest (`npm test` or one file) tests code older
 * than the sources.
 */
function buildEntryPoints(): void {
  execFileSync(process.execPath, [path.resolve(__dirname, '../../scripts/build.js')], { stdio: 'inherit' });
}
