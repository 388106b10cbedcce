/**
 * A venue is one module (core/venues/<venue>/, listed by core/venues/venueModules.ts): outside the
 * venues' own folders, no code of core/, gateway/ or contract/ names a venue or an exchange by a
 * literal (compares with one, lists them, casts to one, writes one into SQL). Read from the source
 * with TypeScript's parser: string literals, literal types and the fixed parts of templates count;
 * comments and prose that only mention a venue do not.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { EXCHANGES as DASHBOARD_EXCHANGES } from '../../dashboard/src/types';
import { EXCHANGE_NAMES, VENUE_COLUMNS, VENUE_NAMES } from '../../core/venues/venueModules';

const ROOT = path.resolve(__dirname, '../..');
const VENUE_FOLDERS = ['core/venues/kalshi/', 'core/venues/polymarket/', 'core/venues/sim/'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return relative === 'core/generated' ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const NAMES = [...new Set([...VENUE_NAMES, ...VENUE_COLUMNS, ...EXCHANGE_NAMES])];
/** A literal that is a name, or SQL that quotes one ('kalshi'::text). */
const namesAVenue = (text: string) => NAMES.some((name) => text === name || text.includes(`'${name}'`));

function literalTexts(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  return [];
}

/** `file:line text` for every literal of `file` that names a venue or an exchange. */
function venueLiterals(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    for (const literal of literalTexts(node)) {
      if (namesAVenue(literal)) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${JSON.stringify(literal.slice(0, 60))}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('venue names outside the venue modules', () => {
  const files = ['core', 'gateway', 'contract'].flatMap(sourceFiles).filter((file) => !VENUE_FOLDERS.some((folder) => file.startsWith(folder)));
  const byFile = new Map(files.map((file) => [file, venueLiterals(file)]));

  it('reads the whole code base, and the registry names four venues and two exchanges', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(VENUE_NAMES).toHaveLength(4);
    expect(EXCHANGE_NAMES).toHaveLength(2);
  });

  it('are found nowhere', () => {
    expect([...byFile].flatMap(([, found]) => found)).toEqual([]);
  });

  it("the dashboard's exchanges (a copy: the dashboard is built apart from the core) are the registry's", () => {
    expect([...DASHBOARD_EXCHANGES].sort()).toEqual([...EXCHANGE_NAMES].sort());
  });

  it('finds a literal in a comparison, a list, a type and SQL, and not in a comment or prose', () => {
    const probe = (code: string) => {
      const source = ts.createSourceFile('probe.ts', code, ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node) => {
        found.push(...literalTexts(node).filter(namesAVenue));
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    };
    expect(probe("if (venue === 'kalshi') {}")).toEqual(['kalshi']);
    expect(probe("const all = ['sim-kalshi', 'polymarket'];")).toEqual(['sim-kalshi', 'polymarket']);
    expect(probe("type Exchange = 'kalshi' | 'polymarket';")).toEqual(['kalshi', 'polymarket']);
    expect(probe("sql`WHERE venue = 'sim_polymarket'::\"Venue\" AND id = ${id}`")).toHaveLength(1);
    expect(probe("// if (venue === 'kalshi')\nconst message = 'Kalshi answered 429';")).toEqual([]);
  });
});
