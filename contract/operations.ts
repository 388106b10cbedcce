import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse, print, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/**
 * The persisted operations: every `.graphql` document under contract/operations. The gateway sends
 * only an operation's SHA-256 and its variables; the core executes only documents of this catalog
 * for gateway traffic.
 */
export const OPERATIONS_DIR = path.resolve(__dirname, 'operations');

export interface PersistedOperation {
  name: string;
  hash: string;
  text: string;
  document: DocumentNode;
}

const FRAGMENTS_DIR = 'fragments';

/**
 * Every operation under `dir`, with the fragments it spreads (from `dir/fragments`, transitively)
 * appended to its text, so that its hash covers exactly what the core will execute.
 */
export function loadOperations(dir = OPERATIONS_DIR): Map<string, PersistedOperation> {
  const fragments = loadFragments(path.join(dir, FRAGMENTS_DIR));
  const byName = new Map<string, PersistedOperation>();
  for (const file of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.graphql') || file.startsWith(`${FRAGMENTS_DIR}${path.sep}`)) continue;
    const own = fs.readFileSync(path.join(dir, file), 'utf8');
    const text = [own, ...fragmentsUsedBy(own, fragments)].join('\n');
    const document = parse(text);
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    if (operations.length !== 1 || !operations[0].name) {
      throw new Error(`${file}: a persisted operation file holds exactly one named operation`);
    }
    const name = operations[0].name.value;
    if (byName.has(name)) throw new Error(`${file}: operation ${name} is defined twice`);
    byName.set(name, { name, hash: createHash('sha256').update(text).digest('hex'), text, document });
  }
  return byName;
}

function loadFragments(dir: string): Map<string, string> {
  const fragments = new Map<string, string>();
  if (!fs.existsSync(dir)) return fragments;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.graphql'))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const definition of parse(text).definitions) {
      if (definition.kind !== 'FragmentDefinition') throw new Error(`${file}: only fragments belong in ${FRAGMENTS_DIR}/`);
      fragments.set(definition.name.value, print(definition));
    }
  }
  return fragments;
}

function fragmentsUsedBy(text: string, fragments: Map<string, string>): string[] {
  const used = new Map<string, string>();
  const visit = (source: string) => {
    for (const [, name] of source.matchAll(/\.\.\.\s*([_A-Za-z]\w*)/g)) {
      if (name === 'on' || used.has(name)) continue;
      const fragment = fragments.get(name);
      if (!fragment) throw new Error(`unknown fragment ${name}`);
      used.set(name, fragment);
      visit(fragment);
    }
  };
  visit(text);
  return [...used.values()];
}
