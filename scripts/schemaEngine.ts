import fs from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * Prisma's schema engine compiled to Wasm, driven over a driver adapter: it writes migration SQL
 * from schema.prisma without the native engine the Prisma CLI would download. Development tool
 * only (migration authoring and the drift check); the service applies SQL files itself.
 */
export const SCHEMA_PATH = path.resolve(__dirname, '../prisma/schema.prisma');

type Engine = {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};

async function loadEngine(url: string): Promise<Engine> {
  const runtime = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as any;
  const wasmFile = path.join(
    path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  );
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(wasmFile)), {
    './schema_engine_bg.js': runtime,
  });
  runtime.__wbg_set_wasm(instance.exports);
  (instance.exports as any).__wbindgen_start();
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: url }));
  return runtime.SchemaEngine.new({ datamodels: undefined }, () => undefined, adapter);
}

const EMPTY_SCHEMA = 'datasource db {\n  provider = "postgresql"\n}\n';

/**
 * SQL that turns a database shaped by `from` (a schema.prisma text; null for an empty database)
 * into one shaped by `to`. Datamodel-to-datamodel diffs need no live database to describe.
 */
export async function diffSchemas(url: string, from: string | null, to: string): Promise<string> {
  const engine = await loadEngine(url);
  try {
    const target = (content: string) => ({ tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content }] });
    const result = await engine.diff({
      from: target(from ?? EMPTY_SCHEMA),
      to: target(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = (result.stdout ?? '').trim();
    return /^-- This is an empty migration\.?$/.test(sql) ? '' : sql;
  } finally {
    engine.free();
  }
}
