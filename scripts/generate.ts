/**
 * `npm run generate` (also run after install): the Prisma client and the Pothos types.
 * The Prisma CLI insists on a native schema engine before `generate`, which it cannot download
 * offline; generate never uses it, so any existing file satisfies the check (docs/runtime.md).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, 'prisma', 'schema.prisma');
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], { cwd: root, env, stdio: 'inherit' });
