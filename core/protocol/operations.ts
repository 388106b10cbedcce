import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/**
 * The persisted operations: every `.graphql` document under gateway/operations. The gateway sends
 * only an operation's SHA-256 and its variables; the core executes only documents of this catalog
 * for gateway traffic.
 */
export const OPERATIONS_DIR = path.resolve(__dirname, '../../gateway/operations');

export interface PersistedOperation {
  name: string;
  hash: string;
  text: string;
  document: DocumentNode;
}

export function loadOperations(dir = OPERATIONS_DIR): Map<string, PersistedOperation> {
  const byName = new Map<string, PersistedOperation>();
  for (const file of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!file.endsWith('.graphql')) continue;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
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
