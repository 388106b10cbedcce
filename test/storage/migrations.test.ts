import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

async function check(...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(tsx, ['scripts/checkMigrations.ts', ...args], { cwd: root, timeout: 120_000 });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe('prisma/migrations against prisma/schema.prisma', () => {
  it('the migrations build exactly what schema.prisma describes', async () => {
    const result = await check();
    expect(result.stdout).toContain('migrations match prisma/schema.prisma');
    expect(result.code).toBe(0);
  }, 120_000);

  it('a schema that the migrations do not build is reported, column and index by name', async () => {
    const schema = fs
      .readFileSync(path.join(root, 'prisma/schema.prisma'), 'utf8')
      .replace(/^(\s+name\s+String)$/m, '$1\n  nickname String?')
      .replace('@@index([subaccountId, status])', '@@index([subaccountId])');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'schema-')), 'schema.prisma');
    fs.writeFileSync(file, schema);
    const result = await check('--schema', file);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('missing from the migrations: column workspaces.nickname');
    expect(result.stdout).toContain('orders_subaccount_id_idx');
  }, 120_000);
});
