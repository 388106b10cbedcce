import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCircular, parseDependencyTree, type DependencyTree } from 'dpdm';

// dpdm colours its own printouts with chalk 5, an ES module Jest's CommonJS runtime cannot load;
// this test prints its own lines and never calls those printers.
jest.mock('../../node_modules/dpdm/node_modules/chalk', () => ({}));

/**
 * The house plan: which folder may import which. Type-only imports count (a type import is still a
 * dependency a reader follows, and a cycle of them is still a cycle). A file of the root of core/
 * (config.ts, coreService.ts) is its own area: coreService.ts wires the whole core together.
 *
 *   contract/        the gateway<->core contract      imports nothing of core/ or gateway/
 *   core/domain/     pure rules                       contract/ only (no edge framework either)
 *   core/support/    logging, metrics, readiness      contract/ only
 *   core/db/         the database                     core/config.ts, core/generated/, domain, support
 *   core/venues/     venue adapters, the registry     domain, db, support
 *   core/services/   use cases                        domain, db, venues, support
 *   core/graphql/    the GraphQL edge of the core     anything of core/ but gateway/
 *   core/ops/        the operator's view of the core  domain, db, venues, services, support
 *   gateway/         the REST edge                    contract/, core/support/, core/config.ts (the one
 *                                                     configuration, parsed and validated once for both sides);
 *                                                     never the core's domain, services, GraphQL, venues or database
 *   fakes/           fakes of outside venues (tests)  core/domain/ only: a fake must not borrow our adapters
 *   bin/, scripts/   entry points                     anything
 */
const HOUSE_PLAN: Record<string, readonly string[]> = {
  contract: [],
  'core/domain': ['contract'],
  'core/support': ['contract'],
  'core/db': ['contract', 'core/config.ts', 'core/generated', 'core/domain', 'core/support'],
  'core/venues': ['contract', 'core/generated', 'core/domain', 'core/db', 'core/support'],
  'core/services': ['contract', 'core/generated', 'core/domain', 'core/db', 'core/venues', 'core/support'],
  'core/graphql': ['contract', 'core/config.ts', 'core/generated', 'core/domain', 'core/db', 'core/venues', 'core/services', 'core/support'],
  'core/ops': ['contract', 'core/domain', 'core/db', 'core/venues', 'core/services', 'core/support'],
  'core/config.ts': ['contract', 'core/domain', 'core/support'],
  'core/coreService.ts': ['contract', 'core/config.ts', 'core/domain', 'core/db', 'core/venues', 'core/services', 'core/graphql', 'core/ops', 'core/support'],
  gateway: ['contract', 'core/config.ts', 'core/support'],
  fakes: ['core/domain'],
};

/** Packages of the edges (GraphQL, HTTP, Prisma, Redis, logging) that pure domain rules never import. */
const EDGE_PACKAGES = /^(graphql|graphql-yoga|koa|koa-[\w-]+|ioredis|pino|@graphql-yoga\/[^/]+|@pothos\/[^/]+|@koa\/[^/]+|@prisma\/[^/]+)(\/|$)/;

const ROOT = path.resolve(__dirname, '../..');
const ENTRIES = ['contract/**/*.ts', 'core/**/*.ts', 'gateway/**/*.ts', 'fakes/**/*.ts', 'bin/**/*.ts', 'scripts/**/*.ts'];

/** The folder a file belongs to in the plan: contract, gateway, bin, scripts, core/<folder>, or a root file of core/. */
function areaOf(file: string): string | null {
  const parts = file.split('/');
  if (parts.includes('node_modules') || parts[0] === '..' || file.startsWith('node:')) return null; // a package
  if (parts[0] === 'core') return parts.length > 2 ? `core/${parts[1]}` : file;
  return parts[0];
}

/** Every import that leaves its area for one the plan does not allow, as `file -> imported file` lines. */
function planViolations(tree: DependencyTree): string[] {
  const violations: string[] = [];
  for (const [file, dependencies] of Object.entries(tree)) {
    const from = areaOf(file);
    if (from === null || !(from in HOUSE_PLAN)) continue; // bin/, scripts/ and generated code may import anything
    for (const dependency of dependencies ?? []) {
      if (from === 'core/domain' && EDGE_PACKAGES.test(dependency.request)) {
        violations.push(`${file} -> ${dependency.request} (core/domain may not import an edge framework)`);
        continue;
      }
      const to = dependency.id === null ? null : areaOf(dependency.id);
      if (to === null || to === from || HOUSE_PLAN[from].includes(to)) continue;
      violations.push(`${file} -> ${dependency.id} (${from} may not import ${to})`);
    }
  }
  return violations.sort();
}

/** A venue's own folder (core/venues/<venue>/), or null for a file outside them. */
const venueFolderOf = (file: string): string | null => /^core\/venues\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Imports from one venue's folder into another's: a venue is one module, and borrows nothing of another. */
function crossVenueImports(tree: DependencyTree): string[] {
  return Object.entries(tree).flatMap(([file, dependencies]) => {
    const from = venueFolderOf(file);
    if (from === null) return [];
    return (dependencies ?? []).flatMap((d) => {
      const to = d.id === null ? null : venueFolderOf(d.id);
      return to !== null && to !== from ? [`${file} -> ${d.id}`] : [];
    });
  });
}

/** Relative imports dpdm could not resolve: an edge the checks above would silently miss. */
function unresolvedImports(tree: DependencyTree): string[] {
  return Object.entries(tree).flatMap(([file, dependencies]) =>
    (dependencies ?? []).filter((d) => d.id === null && d.request.startsWith('.')).map((d) => `${file} -> ${d.request}`),
  );
}

const cycleChains = (tree: DependencyTree): string[] => parseCircular(tree).map((cycle) => [...cycle, cycle[0]].join(' -> '));

/** Fails with the offending chains, one a line, so the message says what to fix. */
function expectNone(what: string, chains: string[]) {
  if (chains.length > 0) throw new Error(`${chains.length} ${what}:\n  ${chains.join('\n  ')}`);
}

describe('the house plan', () => {
  let tree: DependencyTree;

  beforeAll(async () => {
    tree = await parseDependencyTree(ENTRIES, { context: ROOT, cwd: ROOT, exclude: /node_modules|core\/generated\//, transform: false });
  }, 60_000);

  it('parses the whole code base, every relative import resolved', () => {
    for (const file of ['contract/principal.ts', 'core/domain/orderLifecycle.ts', 'core/services/orders/orders.ts', 'core/venues/registry.ts', 'gateway/routes/index.ts', 'bin/start.ts']) {
      expect(tree[file]).toEqual(expect.any(Array));
    }
    expectNone('unresolved relative import(s)', unresolvedImports(tree));
  });

  it('has no import cycle', () => {
    expectNone('import cycle(s)', cycleChains(tree));
  });

  it('imports only in the directions of the plan', () => {
    expectNone('import(s) against the house plan', planViolations(tree));
  });

  it('has no venue folder importing another venue\'s (shared venue code lives in core/venues/ itself)', () => {
    expectNone('import(s) across venue folders', crossVenueImports(tree));
  });
});

describe('the Idempotency-Key hook', () => {
  it('holds no SQL and names no operation: the keys are the idempotency service\'s, and a field says that it claims in its own write', () => {
    const hook = readFileSync(path.join(ROOT, 'core/graphql/idempotency.ts'), 'utf8');
    expect(hook).not.toMatch(/\b(SELECT|INSERT|UPDATE|DELETE)\b|\$executeRaw|\$queryRaw|\.query\(|db\/sql|prismaClient/);
    const operations = readdirSync(path.join(ROOT, 'contract/operations')).map((file) => file.replace(/\.graphql$/, ''));
    expect(operations.length).toBeGreaterThan(10);
    expect(operations.filter((name) => new RegExp(`\\b${name}\\b`).test(hook))).toEqual([]);
  });
});

describe('the house plan checks', () => {
  const dependency = (issuer: string, id: string, request = `./${path.basename(id)}`) => ({ issuer, request, id, kind: 'StaticImport' as never });

  it('report an import from one venue folder into another, and not one from a venue folder to core/venues/ itself', () => {
    const tree: DependencyTree = {
      'core/venues/polymarket/gamma.ts': [dependency('core/venues/polymarket/gamma.ts', 'core/venues/kalshi/wire.ts'), dependency('core/venues/polymarket/gamma.ts', 'core/venues/wireRecords.ts')],
      'core/venues/registry.ts': [dependency('core/venues/registry.ts', 'core/venues/sim/index.ts')],
    };
    expect(crossVenueImports(tree)).toEqual(['core/venues/polymarket/gamma.ts -> core/venues/kalshi/wire.ts']);
  });

  it('report a cycle as its chain, closed on its first file', () => {
    const tree: DependencyTree = {
      'core/services/a.ts': [dependency('core/services/a.ts', 'core/services/b.ts')],
      'core/services/b.ts': [dependency('core/services/b.ts', 'core/services/a.ts')],
    };
    expect(cycleChains(tree)).toEqual(['core/services/a.ts -> core/services/b.ts -> core/services/a.ts']);
  });

  it('report an import against the plan with both files, and allow one along it', () => {
    const tree: DependencyTree = {
      'core/domain/rule.ts': [dependency('core/domain/rule.ts', 'core/venues/venue.ts'), dependency('core/domain/rule.ts', 'contract/principal.ts')],
      'gateway/routes/orders.ts': [dependency('gateway/routes/orders.ts', 'core/services/orders/orders.ts'), dependency('gateway/routes/orders.ts', 'contract/decimalStrings.ts')],
      'core/services/orders/orders.ts': [dependency('core/services/orders/orders.ts', 'core/venues/venue.ts')],
      'contract/principal.ts': [dependency('contract/principal.ts', 'core/support/logger.ts')],
      'core/domain/pure.ts': [{ issuer: 'core/domain/pure.ts', request: '@prisma/client', id: 'node_modules/@prisma/client/index.js', kind: 'StaticImport' as never }],
    };
    expect(planViolations(tree)).toEqual([
      'contract/principal.ts -> core/support/logger.ts (contract may not import core/support)',
      'core/domain/pure.ts -> @prisma/client (core/domain may not import an edge framework)',
      'core/domain/rule.ts -> core/venues/venue.ts (core/domain may not import core/venues)',
      'gateway/routes/orders.ts -> core/services/orders/orders.ts (gateway may not import core/services)',
    ]);
  });
});
