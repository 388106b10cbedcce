import { getNamedType, isObjectType, isScalarType, type GraphQLOutputType, type SelectionSetNode } from 'graphql';
import { loadOperations, type PersistedOperation } from '../contract/operations';
import { ApiError } from './errors';
import { fieldsOf, rootFieldOf, type Fragments } from './operationShape';
import type { Route } from './routes';

/**
 * The core speaks GraphQL names; REST clients read snake_case. This module is the one place that
 * turns the first into the second (variables.ts does the way in):
 * - inside the JSON fields of an answer (plans, execution reports, analytics), every key is
 *   snake_cased (the operation's aliases already name the other fields);
 * - a core error's `param` (a GraphQL field such as `timeInForce`, or a variable's path such as
 *   `input.timeInForce`) becomes the route's REST name (`time_in_force`), and the route's inputs
 *   named in its message are spelled the same way.
 */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A stored document whose hash clients verify: passed on as stored, never respelled. */
const VERBATIM_JSON = new Set(['Receipt.content']);

let operations: Map<string, PersistedOperation> | undefined;

/** What a route row says about its inputs: how toVariables maps them to the operation's variables. */
export type RouteInputs = Pick<Route, 'params' | 'query' | 'body' | 'bodyVariable' | 'bodyVerbatim'> & { operation?: string };

export interface RestSpelling {
  /** The core's answer with every key inside its JSON fields snake_cased. */
  answer<T extends { value: unknown }>(result: T): T;
  /** Throws the core's error with its GraphQL names spelled as the route's REST names. */
  refusal(error: unknown): never;
}

export function restSpelling(route: RouteInputs): RestSpelling {
  const json = route.operation ? jsonFieldsOf(route.operation) : null;
  const names = restNamesOf(route);
  const respelled = [...names].filter(([graphql, rest]) => graphql !== rest).map(([graphql]) => graphql);
  const inMessage = respelled.length ? new RegExp(`\\b(${respelled.sort((a, b) => b.length - a.length).join('|')})\\b`, 'g') : null;
  const restName = (segment: string) => {
    const [, name, index] = /^(\w+)(.*)$/.exec(segment) ?? [segment, segment, ''];
    return (names.get(name) ?? snakeCase(name)) + index;
  };
  const restParam = (graphqlPath: string | undefined) => {
    if (!graphqlPath) return undefined;
    const segments = graphqlPath.split('.');
    if (segments[0] === route.bodyVariable) segments.shift(); // the body's fields are top-level in REST
    return segments.length ? segments.map(restName).join('.') : undefined;
  };
  return {
    answer: (result) => {
      const value = json ? respellJson(result.value, json) : result.value;
      return value === result.value && !hasItemErrors(value) ? result : { ...result, value: respellItemErrors(value) };
    },
    refusal(error) {
      if (!(error instanceof ApiError)) throw error;
      const message = inMessage ? respellOutsideQuotes(error.message, inMessage, names) : error.message;
      throw new ApiError(error.code, message, { ...error.extra, param: restParam(error.extra.param) });
    },
  };
}

/**
 * The message with each input name spelled the REST way, except inside '…': the core quotes the
 * client's own values that way (a client_order_id `hedge.marketId.1` stays as it was sent).
 */
function respellOutsideQuotes(message: string, inMessage: RegExp, names: Map<string, string>): string {
  return message
    .split(/('[^']*')/)
    .map((part) => (part.startsWith("'") && part.endsWith("'") && part.length > 1 ? part : part.replace(inMessage, (name) => names.get(name)!)))
    .join('');
}

/** GraphQL name -> REST name of every input of the route, as toVariables maps them. */
function restNamesOf(route: RouteInputs): Map<string, string> {
  const names = new Map<string, string>();
  for (const schema of [route.params, route.query]) for (const key of Object.keys(schema?.shape ?? {})) names.set(camelCase(key), key);
  for (const key of Object.keys(route.body?.shape ?? {})) names.set(route.bodyVerbatim ? key : camelCase(key), key);
  return names;
}

/** Where an answer holds JSON fields: `true` at a JSON field, the response keys leading to one. */
type JsonFields = true | Map<string, JsonFields>;

function jsonFieldsOf(operationName: string): JsonFields | null {
  operations ??= loadOperations();
  const operation = operations.get(operationName);
  if (!operation) throw new Error(`no persisted operation ${operationName}`);
  const { parent, definition, node, fragments } = rootFieldOf(operation.document);
  return jsonFieldsIn(definition.type, node.selectionSet, fragments, `${parent.name}.${definition.name}`);
}

/** The JSON fields under one field (`owner`, as Type.field) of the given type and selection. */
function jsonFieldsIn(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Fragments, owner: string): JsonFields | null {
  const named = getNamedType(type);
  if (isScalarType(named)) return named.name === 'JSON' && !VERBATIM_JSON.has(owner) ? true : null;
  if (!isObjectType(named) || !selection) return null;
  const found = new Map<string, JsonFields>();
  for (const node of fieldsOf(selection, fragments)) {
    const field = named.getFields()[node.name.value];
    const inner = jsonFieldsIn(field.type, node.selectionSet, fragments, `${named.name}.${field.name}`);
    if (inner) found.set(node.alias?.value ?? node.name.value, inner);
  }
  return found.size ? found : null;
}

function respellJson(value: unknown, fields: JsonFields): unknown {
  if (Array.isArray(value)) return value.map((item) => respellJson(item, fields));
  if (fields === true) return snakeKeys(value);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, inner] of fields) if (key in out) out[key] = respellJson(out[key], inner);
  return out;
}

/**
 * A batch's answer (`data`: one entry per item, each `{…, error}`): an item's error names its
 * field the GraphQL way (`postOnly`), spelled here as the REST body's (`post_only`).
 */
const hasItemErrors = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data) && (value as { data: unknown[] }).data.some((item) => typeof (item as { error?: { param?: unknown } } | null)?.error?.param === 'string');

function respellItemErrors(value: unknown): unknown {
  if (!hasItemErrors(value)) return value;
  const data = (value as { data: unknown[] }).data.map((item) => {
    const error = (item as { error?: { param?: unknown } }).error;
    if (typeof error?.param !== 'string') return item;
    return { ...(item as object), error: { ...error, param: error.param.split('.').map(snakeCase).join('.') } };
  });
  return { ...(value as object), data };
}

/** Every key in snake_case, values unchanged. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snakeCase(k), snakeKeys(v)]));
}
