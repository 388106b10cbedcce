/**
 * `npm run db:check [-- --schema <path>]`: proves that prisma/migrations build exactly what
 * schema.prisma describes. In one embedded database, our migrations build schema `public`, and the
 * SQL Prisma's schema engine writes for schema.prisma from nothing builds schema `expected`; then
 * the two catalogs (enums, tables, columns, defaults, constraints, indexes) must be equal.
 * Exit 0 when they are, 1 with the differences otherwise.
 */
import fs from 'node:fs';
import { Client } from 'pg';
import { exitWith } from '../bin/process';
import { startEmbeddedPostgres } from '../core/db/embeddedPostgres';
import { applyMigrations } from '../core/db/migrate';
import { SCHEMA_PATH, diffSchemas } from './schemaEngine';

type Catalog = Map<string, string>;

async function catalogOf(client: Client, schema: string): Promise<Catalog> {
  // Expressions print unqualified for the schema on the search path.
  await client.query(`SET search_path TO "${schema}"`);
  const rows = await client.query<{ key: string; value: string }>(
    `
    SELECT 'enum ' || t.typname AS key, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS value
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = $1 GROUP BY t.typname
    UNION ALL
    SELECT 'column ' || c.table_name || '.' || c.column_name,
           concat_ws(' ', c.udt_name, coalesce(c.character_maximum_length::text, ''),
                     coalesce(c.numeric_precision::text || ',' || c.numeric_scale::text, ''),
                     coalesce(c.datetime_precision::text, ''),
                     CASE WHEN c.is_nullable = 'YES' THEN 'null' ELSE 'not null' END,
                     'default ' || coalesce(c.column_default, '-'))
      FROM information_schema.columns c
     WHERE c.table_schema = $1 AND c.table_name <> '_prisma_migrations'
    UNION ALL
    SELECT 'constraint ' || cl.relname || '.' || co.conname, pg_get_constraintdef(co.oid)
      FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
     WHERE n.nspname = $1 AND cl.relname <> '_prisma_migrations'
    UNION ALL
    SELECT 'index ' || i.indexname, i.indexdef
      FROM pg_indexes i WHERE i.schemaname = $1 AND i.tablename <> '_prisma_migrations'
    `,
    [schema],
  );
  return new Map(rows.rows.map((row) => [row.key, row.value.replaceAll(`${schema}.`, '').replaceAll(`"${schema}".`, '')]));
}

function differences(actual: Catalog, expected: Catalog): string[] {
  const lines: string[] = [];
  for (const [key, value] of expected) {
    if (!actual.has(key)) lines.push(`missing from the migrations: ${key} (${value})`);
    else if (actual.get(key) !== value) lines.push(`differs: ${key}\n    migrations:    ${actual.get(key)}\n    schema.prisma: ${value}`);
  }
  for (const [key, value] of actual) if (!expected.has(key)) lines.push(`not in schema.prisma: ${key} (${value})`);
  return lines;
}

async function main(): Promise<number> {
  const schemaIndex = process.argv.indexOf('--schema');
  const schemaFile = schemaIndex >= 0 ? process.argv[schemaIndex + 1] : SCHEMA_PATH;
  const db = await startEmbeddedPostgres('memory');
  const client = new Client({ connectionString: db.url });
  try {
    await applyMigrations(db.url);
    const expectedSql = await diffSchemas(db.url, null, fs.readFileSync(schemaFile, 'utf8'));
    await client.connect();
    await client.query('CREATE SCHEMA expected');
    await client.query('SET search_path TO expected');
    await client.query(expectedSql);
    const found = differences(await catalogOf(client, 'public'), await catalogOf(client, 'expected'));
    if (found.length === 0) {
      console.log('migrations match prisma/schema.prisma');
      return 0;
    }
    console.log(`drift between prisma/migrations and ${schemaFile}:\n  ${found.join('\n  ')}`);
    return 1;
  } finally {
    await client.end().catch(() => undefined);
    await db.stop();
  }
}

exitWith(main);
