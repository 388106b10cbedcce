/**
 * The core speaks GraphQL; the gateway alone spells REST (gateway/restSpelling.ts). Read from the
 * source: no string in core/ (core/generated aside) cites one of our REST paths, and the errors the core
 * raises name their inputs as GraphQL does, never by a route's REST name.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROUTES } from '../../gateway/routes';

const CORE = path.resolve(__dirname, '../../core');
const GENERATED = path.join(CORE, 'generated');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === GENERATED ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The text of a string or template literal (its fixed parts), or undefined for anything else. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}');
  return undefined;
}

interface Finding {
  where: string;
  text: string;
}

/** Calls that name an input (`param`) and say what is wrong with it (`message`), by argument position. */
const ERROR_CALLS: Record<string, { param: number; message: number }> = {
  invalidRequest: { param: 0, message: 1 },
  DomainError: { param: 2, message: 1 },
  parseDecimal: { param: 0, message: -1 },
};

/** The REST names of the routes' inputs that differ from their GraphQL names (time_in_force, ...). */
const REST_ONLY_NAMES = new Set(
  ROUTES.flatMap((route) => [route.params, route.query, route.bodyVerbatim ? undefined : route.body])
    .flatMap((schema) => Object.keys(schema?.shape ?? {}))
    .filter((name) => name.includes('_')),
);

/**
 * Our routes' first segments after `/v1/` (`orders`, `heartbeat`, ...). A string cites one of our
 * REST paths when it names one of them, or builds the segment (`/v1/${...}`); a venue's own path
 * that happens to start with `/v1/` (Polymarket's `POST /v1/heartbeats`) is the venue's protocol.
 */
const REST_SEGMENTS = new Set(ROUTES.map((route) => route.path.split('/')[2]).filter((segment): segment is string => segment !== undefined));
const citesRestPath = (text: string) => [...text.matchAll(/\/v1\/([A-Za-z0-9_]*)/g)].some(([, segment]) => segment === '' || REST_SEGMENTS.has(segment!));

function scan(): { restPaths: Finding[]; snakeParams: Finding[]; restNamesInMessages: Finding[] } {
  const found = { restPaths: [] as Finding[], snakeParams: [] as Finding[], restNamesInMessages: [] as Finding[] };
  for (const file of sourceFiles(CORE)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    const where = (node: ts.Node) => `${path.relative(CORE, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node) => {
      const text = literalText(node);
      if (text !== undefined && citesRestPath(text)) found.restPaths.push({ where: where(node), text });
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression.getText(source);
        const positions = ERROR_CALLS[callee];
        const args = node.arguments ?? ts.factory.createNodeArray();
        if (positions) {
          const param = args[positions.param] && literalText(args[positions.param]);
          if (param !== undefined && /[a-z0-9]_[a-z]/.test(param)) found.snakeParams.push({ where: where(node), text: param });
          const message = positions.message >= 0 && args[positions.message] ? literalText(args[positions.message]) : undefined;
          for (const word of message?.match(/\b[a-z0-9]+(?:_[a-z0-9]+)+\b/g) ?? []) {
            if (REST_ONLY_NAMES.has(word)) found.restNamesInMessages.push({ where: where(node), text: word });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('no REST spelling under core/', () => {
  const found = scan();

  it('knows the REST names it looks for', () => {
    expect([...REST_ONLY_NAMES]).toEqual(expect.arrayContaining(['time_in_force', 'client_order_id', 'subaccount_id', 'max_order_notional']));
    // Our paths, and one built from a value, are cited; a venue's own path is not ours.
    expect(['see /v1/orders/{id}', 'POST /v1/heartbeat', '/v1/${}', '/v1/heartbeats', '/trade-api/v2/portfolio/orders'].map(citesRestPath)).toEqual([true, true, true, false, false]);
  });

  it('no string cites a REST path (/v1/...)', () => {
    expect(found.restPaths).toEqual([]);
  });

  it('errors name their input as GraphQL does: no snake_case param in invalidRequest, DomainError or parseDecimal', () => {
    expect(found.snakeParams).toEqual([]);
  });

  it('error messages cite no REST name of a route’s input (the gateway respells the GraphQL one)', () => {
    expect(found.restNamesInMessages).toEqual([]);
  });
});
