import fs from 'node:fs';
import path from 'node:path';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type DocumentNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';
import { loadOperations } from '../contract/operations';
import { ERROR_CATALOGUE, type ErrorCode } from '../contract/errors';
import { MAX_BODY_BYTES } from './middleware/jsonBody';
import { checkedInSchema, fieldsOf, rootFieldOf, type Fragments } from './operationShape';
import type { Route } from './routes';

type JsonSchema = Record<string, unknown>;

const ALWAYS: ErrorCode[] = ['unauthorized', 'internal_error', 'upstream_unavailable'];

/** Every route with a credential is rate limited, and so are those limited per sign-in attempt. */
const isRateLimited = (route: Route) => (route.auth !== 'none' && route.auth !== 'session') || route.signInLimits !== undefined;

/** The credentials a route accepts, any one of them. */
function securityOf(route: Route): Record<string, never[]>[] {
  // A route that reads the cookie's session itself (GET /v1/session) still takes the cookie.
  if (route.auth === 'none') return route.sessionToken ? [{ dashboardSession: [] }] : [];
  if (route.auth === 'session') return [{ dashboardSession: [] }];
  if (route.auth === 'dashboard') return [{ dashboardSession: [] }, { dashboardToken: [] }];
  return route.session ? [{ apiKey: [] }, { dashboardSession: [] }] : [{ apiKey: [] }];
}

/**
 * OpenAPI 3.1 from the route table: parameters and bodies from each row's zod schemas, success
 * bodies from the row's GraphQL operation (its aliases are the JSON field names) against the
 * checked-in schema.graphql, and the errors each route can answer with.
 */
export function buildOpenApi(routes: Route[]): JsonSchema {
  const schema = checkedInSchema();
  const operations = loadOperations();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation = operations.get(route.operation);
    if (!operation) throw new Error(`route ${route.method} ${route.path}: no operation ${route.operation}`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operation.charAt(0).toLowerCase() + route.operation.slice(1),
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      security: securityOf(route),
      parameters: [
        ...parametersOf(route.params, 'path'),
        ...parametersOf(route.query, 'query'),
        ...(route.idempotent
          ? [{
              name: 'Idempotency-Key', in: 'header', required: false,
              description: 'Makes the request safe to retry: 1 to 255 printable ASCII characters without spaces, scoped to the API key, kept at least 24 h. Sent empty or blank, it is refused (400 invalid_request, param Idempotency-Key).',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
            }]
          : []),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(route.body, { io: 'input' }) } } } }
        : {}),
      responses: {
        '200': {
          description: 'OK',
          headers: isRateLimited(route) ? rateLimitHeaders : { 'X-Request-Id': rateLimitHeaders['X-Request-Id'] },
          content: { 'application/json': { schema: answerSchema(route, responseSchema(schema, operation.document)) } },
        },
        ...errorResponses([...route.errors, ...ALWAYS, ...(isRateLimited(route) ? (['rate_limited'] as const) : [])]),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prediction-Market Execution and Risk API',
      version: '1.0.0',
      description: fs.readFileSync(path.resolve(__dirname, '../docs/api-conventions.md'), 'utf8'),
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: mk_test_... (test environment) or mk_live_... (real venues).' },
        dashboardToken: { type: 'http', scheme: 'bearer', description: 'A workspace dashboard token, mk_dash_... (read-only tokens only read); X-Environment (test or live, test by default) chooses the environment.' },
        dashboardSession: {
          type: 'apiKey', in: 'cookie', name: 'mk_session',
          description: 'The dashboard\u2019s session cookie (POST /v1/session signs in). Changes also need X-CSRF-Token; X-Environment (test or live) chooses the environment. See docs/dashboard.md.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
                message: { type: 'string' },
                param: { type: 'string', description: 'The offending parameter, where there is one.' },
                limit: { type: 'string', description: 'With risk_limit_exceeded: the limit that refused the order.' },
                request_id: { type: 'string', description: 'Equals the X-Request-Id response header.' },
              },
            },
          },
        },
      },
    },
  };
}

/** The body a route answers with, from its operation's result: see Route.sessionCookie and Route.answerAs. */
function answerSchema(route: Route, result: JsonSchema): JsonSchema {
  if (route.answerAs) {
    const { constants, field } = route.answerAs;
    const properties: Record<string, JsonSchema> = Object.fromEntries(Object.keys(constants).map((name) => [name, { type: 'boolean', const: true }]));
    if (field) properties[field] = result;
    return { type: 'object', properties, required: Object.keys(properties) };
  }
  if (route.sessionCookie === 'set') return (result as { properties: Record<string, JsonSchema> }).properties.session;
  return result;
}

const rateLimitHeaders = {
  'X-Request-Id': { schema: { type: 'string' } },
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed in the current window: per second for an API key or dashboard credential, per minute for sign-in attempts.' },
  'RateLimit-Remaining': { schema: { type: 'integer' } },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' },
};

function parametersOf(schema: z.ZodObject | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (json.required ?? []).includes(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set(codes)) {
    const { status, description } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `\`${code}\`: ${description}`]);
  }
  byStatus.set(413, byStatus.get(413)?.map((line) => line.replace('the limit', `${MAX_BODY_BYTES} bytes`)) ?? []);
  if (byStatus.get(413)?.length === 0) byStatus.delete(413);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, lines]) => [
        String(status),
        {
          description: lines.join('\n\n'),
          headers: status === 429 ? { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } } : undefined,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
  );
}

function responseSchema(schema: GraphQLSchema, document: DocumentNode): JsonSchema {
  const { definition, node, fragments } = rootFieldOf(document, schema);
  return typeSchema(definition.type, node.selectionSet, fragments);
}

function typeSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Fragments): JsonSchema {
  if (isNonNullType(type)) return typeSchema(type.ofType, selection, fragments);
  if (isListType(type)) return { type: 'array', items: typeSchema(type.ofType, selection, fragments) };
  const named = getNamedType(type);
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.value) };
  if (isScalarType(named)) return scalarSchema(named.name, named.description ?? undefined);
  if (isObjectType(named) && selection) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const node of fieldsOf(selection, fragments)) {
      const field = named.getFields()[node.name.value];
      const key = node.alias?.value ?? node.name.value;
      const property = typeSchema(field.type, node.selectionSet, fragments);
      properties[key] = isNonNullType(field.type) ? property : { anyOf: [property, { type: 'null' }] };
      if (field.description) properties[key].description = field.description;
      required.push(key);
    }
    return { type: 'object', properties, required };
  }
  return {};
}

function scalarSchema(name: string, description?: string): JsonSchema {
  switch (name) {
    case 'ID':
    case 'String':
      return { type: 'string' };
    case 'Int':
      return { type: 'integer' };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'Decimal':
      return { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    default:
      return {};
  }
}
