import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');

/**
 * `npm run build` (before every start) never leaves code that a start could run by mistake: a
 * compiled file whose source is gone is removed. It matters: when `x.ts` became `x/index.ts`,
 * Node would resolve `./x` to the old `x.js` first and run the old code. (The orphan here has a
 * name nothing imports, so suites running beside this one are never affected.)
 */
describe('the build keeps dist/ true to the sources', () => {
  it('removes compiled files whose source is gone, and keeps those compiled from a source', async () => {
    const orphan = path.join(DIST, 'core', 'services', 'retiredForBuildTest.js');
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    fs.writeFileSync(orphan, "throw new Error('a module whose source was deleted');\n");
    fs.writeFileSync(`${orphan}.map`, '{}');

    await run(process.execPath, [path.join(ROOT, 'scripts', 'build.js')], { cwd: ROOT });

    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(`${orphan}.map`)).toBe(false);
    expect(fs.existsSync(path.join(DIST, 'core', 'services', 'orders', 'orders.js'))).toBe(true);
    expect(fs.existsSync(path.join(DIST, 'core', 'services', 'complexOrders', 'index.js'))).toBe(true);
    expect(fs.existsSync(path.join(DIST, 'bin', 'start.js'))).toBe(true);
  }, 120_000);
});
