/**
 * `npm run build` (also run by `npm install`, `npm test` and before every `npm start`): compiles the
 * server (contract/, core/, gateway/, bin/) to dist/ with tsc, then copies beside it the files the
 * compiled code reads at run time, so that dist/ mirrors the source tree and every
 * `path.resolve(__dirname, …)` finds the same file in both. `tsc --build` rebuilds only when a
 * source is newer than dist/.tsbuildinfo (a second otherwise), so a start never runs code older
 * than the checkout.
 *
 * Plain JavaScript, not TypeScript: it must run where the build tools are not installed. A
 * production install (dist/ built elsewhere, `npm install --omit=dev`) has no sources to build;
 * there this script keeps the shipped dist/ and builds nothing. See docs/runtime.md.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

/** What the compiled code reads at run time, by path relative to the project, and who reads it. */
const RUN_TIME_FILES = [
  'contract/operations', // contract/operations.ts: the persisted operations
  'prisma/migrations', // core/db/migrate.ts: applied at start-up
  'schema.graphql', // gateway/openapi.ts: the OpenAPI document's schemas
  'docs/api-conventions.md', // gateway/openapi.ts: the OpenAPI document's description
  'dashboard/dist', // gateway/dashboardPage.ts: the built dashboard (npm run build:dashboard)
];

function typescriptCompiler() {
  try {
    return require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  } catch {
    return null;
  }
}

// A production install holds dist/ without the sources, and perhaps without TypeScript.
const tsc = fs.existsSync(path.join(ROOT, 'tsconfig.build.json')) ? typescriptCompiler() : null;
if (tsc === null) {
  if (fs.existsSync(path.join(DIST, 'bin', 'start.js'))) {
    process.stderr.write('build: no sources or no TypeScript here (a production install): running the dist/ that was shipped\n');
    process.exit(0);
  }
  process.stderr.write('build: dist/ is missing and cannot be built here: run `npm run build` where the sources and devDependencies are, and ship dist/\n');
  process.exit(1);
}

/** The compiled folders, from tsconfig.build.json's `include`. */
const COMPILED = ['contract', 'core', 'gateway', 'bin'];
/** Entry points a start runs: if one is missing, the incremental state cannot be trusted. */
const ENTRY_POINTS = ['start', 'startCore', 'startGateway', 'cli'].map((name) => path.join(DIST, 'bin', `${name}.js`));

// tsc --build trusts dist/.tsbuildinfo: an output deleted by hand would not come back without --force.
const force = ENTRY_POINTS.some((file) => !fs.existsSync(file));
try {
  execFileSync(process.execPath, [tsc, '--build', ...(force ? ['--force'] : []), path.join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
} catch {
  process.stderr.write('build: tsc failed; dist/ was left as it was\n');
  process.exit(1);
}
pruneOrphans();

/**
 * Removes compiled files whose source is gone. tsc never deletes an output, and an orphan is not
 * harmless: when `x.ts` becomes `x/index.ts`, Node resolves `require('./x')` to the old `x.js`
 * first, and would run the old code.
 */
function pruneOrphans() {
  for (const folder of COMPILED) {
    const compiled = path.join(DIST, folder);
    if (!fs.existsSync(compiled)) continue;
    for (const entry of fs.readdirSync(compiled, { recursive: true })) {
      const match = /^(.*)\.js(\.map)?$/.exec(String(entry));
      if (!match) continue;
      const source = path.join(ROOT, folder, `${match[1]}.ts`);
      if (!fs.existsSync(source)) fs.rmSync(path.join(compiled, String(entry)), { force: true });
    }
  }
}

for (const file of RUN_TIME_FILES) {
  const from = path.join(ROOT, file);
  if (!fs.existsSync(from)) {
    process.stderr.write(`build: ${file} does not exist; the compiled code will not find it\n`);
    continue;
  }
  mirror(from, path.join(DIST, file));
}

/**
 * Makes `to` a copy of `from` (a file or a directory tree), writing only what differs, each file
 * through a rename: a process starting from dist/ while another start builds (start:core and
 * start:gateway side by side) never finds a run-time file missing or half written.
 */
function mirror(from, to) {
  if (fs.statSync(from).isDirectory()) {
    if (fs.existsSync(to) && !fs.statSync(to).isDirectory()) fs.rmSync(to);
    fs.mkdirSync(to, { recursive: true });
    const names = new Set(fs.readdirSync(from));
    for (const name of names) mirror(path.join(from, name), path.join(to, name));
    for (const name of fs.readdirSync(to)) if (!names.has(name)) fs.rmSync(path.join(to, name), { recursive: true, force: true });
    return;
  }
  const content = fs.readFileSync(from);
  if (fs.existsSync(to) && fs.statSync(to).isFile() && content.equals(fs.readFileSync(to))) return;
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  const temporary = `${to}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, to);
}
