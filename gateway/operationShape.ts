import fs from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * The shape of a persisted operation's answer, read against the core's checked-in schema.graphql:
 * its one root field, and the fields each selection set selects. The OpenAPI response schemas and
 * the gateway's REST spelling of JSON fields both walk answers this way.
 */
const SCHEMA_FILE = path.resolve(__dirname, '../schema.graphql');
let schema: GraphQLSchema | undefined;

/** The core's schema as checked in (schema.graphql), read once. */
export function checkedInSchema(): GraphQLSchema {
  schema ??= buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  return schema;
}

export type Fragments = Map<string, FragmentDefinitionNode>;

export interface RootField {
  /** Query or Mutation. */
  parent: GraphQLObjectType;
  definition: GraphQLField<unknown, unknown>;
  node: FieldNode;
  fragments: Fragments;
}

/** The one root field a persisted operation selects, with the fragments its document defines. */
export function rootFieldOf(document: DocumentNode, against: GraphQLSchema = checkedInSchema()): RootField {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments: Fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const parent = operation.operation === 'mutation' ? against.getMutationType()! : against.getQueryType()!;
  const node = operation.selectionSet.selections[0];
  if (node.kind !== Kind.FIELD) throw new Error('a persisted operation selects one root field');
  return { parent, definition: parent.getFields()[node.name.value], node, fragments };
}

/** The fields a selection set selects, with fragment spreads replaced by their fields. */
export function fieldsOf(selection: SelectionSetNode, fragments: Fragments): FieldNode[] {
  return selection.selections.flatMap((node) => {
    if (node.kind === Kind.FIELD) return [node];
    if (node.kind === Kind.FRAGMENT_SPREAD) return fieldsOf(fragments.get(node.name.value)!.selectionSet, fragments);
    return fieldsOf(node.selectionSet, fragments);
  });
}
