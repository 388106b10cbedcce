/**
 * `npm run db:diff -- <name> [--from <git revision>]`: writes the SQL that takes the schema.prisma
 * of a git revision (default HEAD) to the working copy's as a new migration in Prisma's layout.
 * Review it, then `npm test`: test/storage/migrations.test.ts proves the migrations as a whole
 * build exactly what schema.prisma describes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { exitWith } from '../bin/process';
import { startEmbeddedPostgres } from '../core/db/embeddedPostgres';
import { MIGRATIONS_DIR } from '../core/db/migrate';
import { SCHEMA_PATH, diffSchemas } from './schemaEngine';

function schemaAt(revision: string): string | null {
  try {
    return execFileSync('git', ['show', `${revision}:prisma/schema.prisma`], { encoding: 'utf8', stdio: 'pipe' });
  } catch {
    return null; // no earlier schema: the migration creates everything
  }
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const fromIndex = args.indexOf('--from');
  const revision = fromIndex >= 0 ? args[fromIndex + 1] : 'HEAD';
  const name = args.find((arg, i) => !arg.startsWith('--') && !(fromIndex >= 0 && i === fromIndex + 1)) ?? 'change';
  const db = await startEmbeddedPostgres('memory');
  try {
    const sql = await diffSchemas(db.url, schemaAt(revision), fs.readFileSync(SCHEMA_PATH, 'utf8'));
    if (sql === '') {
      console.log(`nothing to write: schema.prisma is unchanged since ${revision}`);
      return 0;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name.replace(/\W+/g, '_')}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'migration.sql'), `${sql}\n`);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
    return 0;
  } finally {
    await db.stop();
  }
}

exitWith(main);
