import { restEventSchema } from '../contract/eventShape';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  getNamedType,
  Kind,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type DocumentNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';
import { loadOperations } from '../contract/operations';
import { ENVIRONMENT_HEADER } from '../contract/environment';
import { ERROR_CATALOGUE, type ErrorCode } from '../contract/errors';
import { MAX_BODY_BYTES } from './middleware/jsonBody';
import { checkedInSchema, fieldsOf, rootFieldOf, type Fragments } from './operationShape';
import type { Route } from './routes';

type JsonSchema = Record<string, unknown>;

/**
 * What every route can answer, whatever it does: its credential refused, a body the gateway cannot
 * read (every route reads a body it is sent, GET included), a parameter refused, and the failures
 * of the service itself.
 */
const ALWAYS: ErrorCode[] = [
  'invalid_request', 'invalid_json', 'unauthorized', 'payload_too_large', 'unsupported_media_type',
  'internal_error', 'upstream_unavailable', 'service_unavailable',
];

/** Every error code a route can answer with: its own, those of every route, and those of what it takes. */
export function errorCodesOf(route: Route): ErrorCode[] {
  const codes = new Set<ErrorCode>([...route.errors, ...ALWAYS]);
  if (isRateLimited(route)) codes.add('rate_limited');
  // A change through the dashboard's session needs its CSRF token; a read-only dashboard token only reads.
  const dashboardCredential = route.auth === 'dashboard' || route.auth === 'session' || route.session === true;
  if (dashboardCredential && route.method !== 'GET') codes.add('forbidden');
  // An id in the path, or a filter id, that names nothing the credential may see.
  const filterIds = Object.keys(route.query?.shape ?? {}).some((name) => name.endsWith('_id'));
  if (route.params || filterIds) codes.add('not_found');
  if (route.idempotent) {
    codes.add('idempotency_key_in_use');
    codes.add('idempotency_key_reused');
  }
  return [...codes];
}

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
  const names = new SchemaNames(schema, operations.values());
  for (const route of routes) {
    const operation = operations.get(route.operation);
    if (!operation) throw new Error(`route ${route.method} ${route.path}: no operation ${route.operation}`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.marketStream ? 'streamMarketData' : route.stream ? `stream${route.operation.replace(/^List/, '')}` : route.operation.charAt(0).toLowerCase() + route.operation.slice(1),
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
        ...dashboardHeaders(route),
      ],
      ...(route.body ? { requestBody: requestBodyOf(route.body) } : {}),
      responses: {
        '200': {
          description: 'OK',
          headers: headersOf(route, 200),
          content: route.marketStream
            ? { 'text/event-stream': { schema: MARKET_STREAM_SCHEMA } }
            : route.stream
            ? { 'text/event-stream': { schema: streamSchema(responseSchema(schema, operation.document, names), names) } }
            : { 'application/json': { schema: answerSchema(route, responseSchema(schema, operation.document, names), names) } },
        },
        ...errorResponses(route, errorCodesOf(route)),
      },
    };
  }
  if (names.schemas.Event) names.schemas.Event = restEventSchema(names.schemas.Event); // contract/eventShape.ts
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
      headers: HEADERS,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: mk_test_... (test environment) or mk_live_... (real venues).' },
        dashboardToken: { type: 'http', scheme: 'bearer', description: 'A workspace dashboard token, mk_dash_... (read-only tokens only read); X-Environment (test or live, test by default) chooses the environment.' },
        dashboardSession: {
          type: 'apiKey', in: 'cookie', name: 'mk_session',
          description: 'The dashboard\u2019s session cookie (POST /v1/session signs in). Changes also need X-CSRF-Token; X-Environment (test or live) chooses the environment. See docs/dashboard.md.',
        },
      },
      schemas: {
        ...names.schemas,
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'request_id'],
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

/**
 * A stream route's body (Route.stream): Server-Sent Events whose `data` lines are the items of the
 * operation's page, one per event. OpenAPI 3.1 has no schema for an event stream's items: the
 * item's schema is given as `x-event-data`, and the format in the description.
 */
function streamSchema(page: JsonSchema, names: SchemaNames): JsonSchema {
  const data = (names.resolve(page) as { properties: { data: { items: JsonSchema } } }).properties.data.items;
  return {
    type: 'string',
    description: 'text/event-stream: `retry: 1000` first; then per event `id: <event id>` and `data: <one JSON object, x-event-data>` and a blank line; `: keep-alive` comment lines in between.',
    'x-event-data': data,
  };
}

/** GET /v1/markets/stream's body (Route.marketStream): its messages, described (docs/market-data.md). */
const MARKET_STREAM_SCHEMA: JsonSchema = {
  type: 'string',
  description:
    'text/event-stream: `retry: 1000` first; then per message `event: <type>` and `data: <one JSON object>` and a blank line; `: keep-alive` comment lines in between. Every message has `type`, `market_id` and `seq` (one more per message of that market). `snapshot`: `yes` and `no` ({bids, asks} of {price, quantity}, best first), `mid`, `quote` (the fields of a market\u2019s quote), `as_of`. `delta`: `changes` [{outcome: yes|no, side: bid|ask, price, quantity ("0": gone)}], `mid`, `as_of`. `trade`: `trade` {id, price (YES), quantity, taker_side, executed_at}. `ticker`: `quote`. `status`: `stale` (true: the market cannot be read now; a snapshot follows when it can), `message`.',
};

/** The body a route answers with, from its operation's result: see Route.sessionCookie and Route.answerAs. */
function answerSchema(route: Route, result: JsonSchema, names: SchemaNames): JsonSchema {
  if (route.answerAs) {
    const { constants, field } = route.answerAs;
    const properties: Record<string, JsonSchema> = Object.fromEntries(Object.keys(constants).map((name) => [name, { type: 'boolean', const: true }]));
    if (field) properties[field] = result;
    return { type: 'object', properties, required: Object.keys(properties) };
  }
  if (route.sessionCookie === 'set') return (names.resolve(result) as { properties: Record<string, JsonSchema> }).properties.session;
  return result;
}

/** The response headers, declared once (components/headers) and referenced by every answer that carries them. */
const HEADERS = {
  'X-Request-Id': {
    required: true,
    schema: { type: 'string' },
    description: 'The request\u2019s id (the caller\u2019s own X-Request-Id when it sent a sane one): equals `request_id` in an error.',
  },
  'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed in the current window: per second for an API key or dashboard credential, per minute for sign-in attempts.' },
  'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the current window.' },
  'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Seconds until the window resets.' },
  'Retry-After': { schema: { type: 'integer', minimum: 0 }, description: 'Seconds to wait before retrying: with rate_limited and service_unavailable.' },
  'Idempotent-Replayed': {
    schema: { type: 'string', enum: ['true'] },
    description: 'Present when the answer (a success or a refusal) is the stored one of an earlier request with the same Idempotency-Key: nothing was done again.',
  },
};
const header = (...names: (keyof typeof HEADERS)[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/**
 * The headers an answer of `status` carries: X-Request-Id always; the RateLimit-* of a rate
 * limited route once its credential is known (a 401 comes before the limiter, except on the
 * sign-in routes, limited per address first); Retry-After with 429 and 503; Idempotent-Replayed
 * on a route that honours Idempotency-Key, whenever the core replayed its answer.
 */
function headersOf(route: Route, status: number): Record<string, unknown> {
  const limitedBeforeCredential = route.signInLimits?.includes('address') === true;
  return {
    ...header('X-Request-Id'),
    ...(isRateLimited(route) && (status !== 401 || limitedBeforeCredential) ? header('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset') : {}),
    ...(status === 429 || status === 503 ? header('Retry-After') : {}),
    ...(route.idempotent && status !== 401 ? header('Idempotent-Replayed') : {}),
  };
}

/** A body whose fields are all optional may be left out (it reads as `{}`). */
function requestBodyOf(body: z.ZodObject) {
  const schema = z.toJSONSchema(body, { io: 'input' }) as JsonSchema & { required?: string[] };
  return { required: (schema.required ?? []).length > 0, content: { 'application/json': { schema } } };
}

/** The headers a request through the dashboard's credentials sends (docs/dashboard.md). */
function dashboardHeaders(route: Route) {
  const dashboard = route.auth === 'dashboard' || route.auth === 'session' || route.session === true;
  if (!dashboard) return [];
  return [
    {
      name: ENVIRONMENT_HEADER, in: 'header', required: false,
      description: 'With a dashboard session or token: the environment to act in, test when left out (an API key has its own). Anything else is refused (400, param X-Environment).',
      schema: { type: 'string', enum: ['test', 'live'] },
    },
    ...(route.method === 'GET'
      ? []
      : [{
          name: 'X-CSRF-Token', in: 'header', required: false,
          description: 'With the dashboard\u2019s session cookie, required on a change: the csrf_token of the session (missing or wrong: 403 forbidden).',
          schema: { type: 'string' },
        }]),
  ];
}

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

function errorResponses(route: Route, codes: ErrorCode[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
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
          headers: headersOf(route, status),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
  );
}

function responseSchema(schema: GraphQLSchema, document: DocumentNode, names: SchemaNames): JsonSchema {
  const { definition, node, fragments } = rootFieldOf(document, schema);
  return names.typeSchema(definition.type, node.selectionSet, fragments);
}

/**
 * The named schemas of the answers (components/schemas), so that a client has one Order type, not
 * one per route. A fragment of contract/operations/fragments is a schema named after it
 * (`OrderFields` is `Order`); a selection that spreads one is a reference to it (with the fields
 * it adds beside, `allOf`). Any other selection of an object type is named after the GraphQL type
 * (`Fill`, `OrderPage`) when it is the first selection of that type, or the same as the first;
 * a different one (a few fields of a deleted subaccount) stays inline.
 */
class SchemaNames {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly byFragment = new Map<string, string>();

  constructor(private readonly schema: GraphQLSchema, operations: Iterable<{ document: DocumentNode }>) {
    const fragments: Fragments = new Map();
    for (const { document } of operations) {
      for (const definition of document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
      }
    }
    for (const name of fragments.keys()) this.byFragment.set(name, name.replace(/Fields$/, ''));
    for (const [name, definition] of fragments) {
      const type = this.schema.getType(definition.typeCondition.name.value) as GraphQLOutputType;
      this.schemas[this.byFragment.get(name)!] = this.objectSchema(type, definition.selectionSet, fragments);
    }
  }

  /** A schema as it is, whether given or referenced. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    return typeof ref === 'string' ? this.schemas[ref.replace(REF, '')] : schema;
  }

  typeSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fragments: Fragments): JsonSchema {
    if (isNonNullType(type)) return this.typeSchema(type.ofType, selection, fragments);
    if (isListType(type)) return { type: 'array', items: this.typeSchema(type.ofType, selection, fragments) };
    const named = getNamedType(type);
    if (!isObjectType(named) || !selection) return leafSchema(named);
    const spreads = selection.selections.filter((node) => node.kind === Kind.FRAGMENT_SPREAD).map((node) => refTo(this.byFragment.get(node.name.value)!));
    const rest: SelectionSetNode = { ...selection, selections: selection.selections.filter((node) => node.kind !== Kind.FRAGMENT_SPREAD) };
    if (spreads.length > 0) {
      return rest.selections.length === 0 && spreads.length === 1 ? spreads[0] : { allOf: [...spreads, this.objectSchema(named, rest, fragments)] };
    }
    const inline = this.objectSchema(named, selection, fragments);
    const taken = this.schemas[named.name];
    if (taken === undefined && !RESERVED.has(named.name)) this.schemas[named.name] = inline;
    else if (!isDeepStrictEqual(taken, inline)) return inline;
    return refTo(named.name);
  }

  private objectSchema(type: GraphQLOutputType, selection: SelectionSetNode, fragments: Fragments): JsonSchema {
    const named = getNamedType(type) as GraphQLObjectType;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const node of fieldsOf(selection, fragments)) {
      const field = named.getFields()[node.name.value];
      const key = node.alias?.value ?? node.name.value;
      const property = this.typeSchema(field.type, node.selectionSet, fragments);
      properties[key] = isNonNullType(field.type) ? property : { anyOf: [property, { type: 'null' }] };
      if (field.description) properties[key] = { ...properties[key], description: field.description };
      required.push(key);
    }
    return { type: 'object', properties, required };
  }
}

const REF = '#/components/schemas/';
/** Names the document gives schemas of its own. */
const RESERVED = new Set(['Error']);
const refTo = (name: string): JsonSchema => ({ $ref: `${REF}${name}` });

function leafSchema(named: ReturnType<typeof getNamedType>): JsonSchema {
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.value) };
  if (isScalarType(named)) return scalarSchema(named.name, named.description ?? undefined);
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
