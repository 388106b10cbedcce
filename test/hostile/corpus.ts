/**
 * The hostile-input corpus: malformed, extreme and malicious requests to every route of the
 * gateway, generated deterministically (fast-check, fixed seeds) over the route table and the
 * OpenAPI document built from it. Each request starts from a valid one of its route (the
 * fixture's ids and credentials) and changes one to three things: a path, query or body value
 * (wrong types, NUL and unpaired surrogates, lengths past the limits, years 0000 and 9999, decimals
 * past numeric(24,6), integers past 32 and 53 bits, injection strings), unknown or repeated
 * fields, raw bodies (invalid JSON, other media types, deep nesting, past the size limit), headers
 * (Idempotency-Key, X-Environment, X-Request-Id, Content-Type), the credential, the method or the
 * path's spelling. The analysts' GraphQL gets documents of its own (deep nesting, NUL escapes,
 * scalars out of range, syntax errors). `refused` corpora must be refused by the server; `edge`
 * corpora hold values at the limits that it may accept.
 */
import fc from 'fast-check';
import { getIntrospectionQuery } from 'graphql';
import { buildOpenApi } from '../../gateway/openapi';
import { ROUTES, type Route } from '../../gateway/routes';

/** What the requests act with: one workspace's credentials and ids, and another workspace's ids. */
export interface Fixture {
  apiKey: string;
  dashboardToken: string;
  readOnlyDashboardToken: string;
  /** A signed-in dashboard page of the workspace: `mk_session=…` and its CSRF token. */
  session: { cookie: string; csrf: string };
  userEmail: string;
  ids: {
    subaccount: string;
    /** A subaccount the DELETE and credential routes start from (refused corpora never delete it). */
    spareSubaccount: string;
    market: string;
    otherMarket: string;
    order: string;
    complexOrder: string;
    /** A key the revoke route starts from (refused corpora never revoke it). */
    spareApiKey: string;
  };
  /** Ids that exist in another workspace. */
  foreign: { subaccount: string; order: string; complexOrder: string; apiKey: string };
}

export interface HostileRequest {
  /** Route and changes, for a failure's message. */
  label: string;
  method: string;
  /** The raw request target: path and query string, percent-encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The server must refuse it (4xx); a refused request writes nothing. */
  mustRefuse: boolean;
}

export type CorpusKind = 'refused' | 'edge';

// ---------------------------------------------------------------------------------------------
// Field kinds, from the OpenAPI document's parameter and body schemas.

type FieldKind =
  | { type: 'id'; prefix: string }
  | { type: 'decimal' }
  | { type: 'timestamp' }
  | { type: 'date' }
  | { type: 'integer'; min: number; max: number }
  | { type: 'enum'; values: string[] }
  | { type: 'boolean' }
  | { type: 'enumArray'; values: string[] }
  | { type: 'limit' }
  | { type: 'cursor' }
  | { type: 'string'; min: number; max: number };

interface Field {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  required: boolean;
}

type JsonSchema = { [key: string]: any };


function fieldOf(name: string, schema: JsonSchema, required: boolean): Field {
  const variants: JsonSchema[] = schema.anyOf ?? [schema];
  const nullable = variants.some((v) => v.type === 'null');
  const s: JsonSchema = { ...variants.find((v) => v.type !== 'null'), description: schema.description ?? variants[0].description };
  const idPrefix = /^An id starting with `(\w+)_`/.exec(s.description ?? '')?.[1];
  let kind: FieldKind;
  if (idPrefix) kind = { type: 'id', prefix: idPrefix };
  else if (s.format === 'decimal') kind = { type: 'decimal' };
  else if (s.format === 'date-time') kind = { type: 'timestamp' };
  else if (s.format === 'date') kind = { type: 'date' };
  else if (s.type === 'integer') {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : Number.MIN_SAFE_INTEGER);
    kind = { type: 'integer', min, max: s.maximum ?? Number.MAX_SAFE_INTEGER };
  } else if (s.enum) kind = { type: 'enum', values: s.enum };
  else if (s.type === 'boolean') kind = { type: 'boolean' };
  else if (s.type === 'array') kind = { type: 'enumArray', values: s.items?.enum ?? ['x'] };
  else if (name === 'limit') kind = { type: 'limit' };
  else if (name === 'cursor') kind = { type: 'cursor' };
  else kind = { type: 'string', min: s.minLength ?? 0, max: s.maxLength ?? 10_000 };
  return { name, kind, nullable, required };
}

interface RouteSpec {
  route: Route;
  path: Field[];
  query: Field[];
  body: Field[];
  /** Changes state when carried out (anything but GET and the complex-order preview, which reads only). */
  writes: boolean;
}

function routeSpecs(): RouteSpec[] {
  const openApi = buildOpenApi(ROUTES) as { paths: Record<string, Record<string, JsonSchema>> };
  return ROUTES.map((route) => {
    const operation = openApi.paths[route.path][route.method.toLowerCase()];
    const parameters = (operation.parameters ?? []) as JsonSchema[];
    const fields = (where: string) => parameters.filter((p) => p.in === where).map((p) => fieldOf(p.name, p.schema, p.required === true));
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema as JsonSchema | undefined;
    const body = Object.entries<JsonSchema>(bodySchema?.properties ?? {}).map(([name, schema]) =>
      fieldOf(name, schema, (bodySchema?.required ?? []).includes(name)),
    );
    return { route, path: fields('path'), query: fields('query'), body, writes: route.method !== 'GET' && route.operation !== 'PreviewComplexOrder' };
  });
}

// ---------------------------------------------------------------------------------------------
// Values. `invalid`: refused by validation wherever the field is; `valid`: values at the limits
// that pass validation (the core may still refuse them).

const LONE_SURROGATES = ['a\ud800b', '\udc00', 'x\udbff'];
const NULS = ['\u0000', 'a\u0000b', 'sa_\u0000', '\u0000'.repeat(20)];
const STRANGE_TEXT = [
  "' OR '1'='1", "'; DROP TABLE orders; --", '"><script>alert(1)</script>', '${7*7}', '{{7*7}}', '../../etc/passwd',
  '%00', '%', '%%', '\\', '\\u0000', '\u202eevil', 'zero\u200bwidth', '\ufeffbom', '😀🚀', 'ｆｅｄ', 'e\u0301', 'line\r\nbreak',
  'tab\there', '\u0001\u0002', '\u007f', '\u0085', '\u2028', 'null', 'undefined', 'NaN', '__proto__', 'constructor',
  '[object Object]', '*', '?', '&', '=', '#', '+', ' leading', 'trailing ', 'fed & rate | (cut):*', '!!', "o'brien",
];
const WRONG_JSON_TYPES: unknown[] = [0, -1, 1.5, 1e308, -1e308, true, false, [], {}, ['x'], { a: 1 }, [[[]]]];
const BIG_INTEGERS = [2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 31) - 1, -(2 ** 53)];

const repeat = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);

function idValues(prefix: string, fixture: Fixture) {
  const wellFormedUnknown = `${prefix}_01${'z'.repeat(24)}`;
  const foreign: Record<string, string | undefined> = {
    sa: fixture.foreign.subaccount, ord: fixture.foreign.order, cxo: fixture.foreign.complexOrder, key: fixture.foreign.apiKey,
  };
  const otherType = prefix === 'mkt' ? fixture.ids.order : fixture.ids.market;
  return {
    invalid: ['', repeat(`${prefix}_`, 65), repeat('9', 4096), ...NULS.map((n) => `${prefix}_${n}`), ...LONE_SURROGATES, 'x'.repeat(64) + '\u0000'],
    /** Well-formed ids the core answers not_found: unknown, another workspace's, another kind's. */
    unknown: [wellFormedUnknown, `${prefix}_`, foreign[prefix] ?? wellFormedUnknown, otherType, ...STRANGE_TEXT.slice(0, 20), wellFormedUnknown.toUpperCase(), ` ${wellFormedUnknown}`],
  };
}

const DECIMAL_INVALID = [
  '', ' ', '1e5', '1E-3', ' 1', '1 ', '+1', '.5', '5.', '--1', '- 1', 'NaN', 'Infinity', '-Infinity', '0x10', '0b1', '１', '1,5',
  '1_000', '999999999999999999.9999999', '1.0000001', '9999999999999999999', '1'.repeat(40), '0.' + '0'.repeat(18) + '1',
  '999999999999999999.999999' + '9'.repeat(12), '-999999999999999999.9999995', '12.5.1',
];
const DECIMAL_VALID = ['0', '-0', '0.000001', '1', '999999999999999999.999999', '-999999999999999999.999999', '1.500000000000000000', '000000000000000001', '123456789012345678', '0.5', '0.01', '0.99'];

const TIMESTAMP_INVALID = [
  '0000-01-01T00:00:00Z', '0000-12-31T23:59:59.999Z', '0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59-00:01', '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z', '2026-01-01T25:00:00Z', '2026-01-01T00:00:60Z', '2026-01-01', 'now', '1700000000', '+002026-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z', '2026-01-01T00:00:00', '2026-01-01 00:00:00Z', '2026-01-01T00:00:00+24:00', '20260101T000000Z', 'T',
];
const TIMESTAMP_VALID = [
  '0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59Z', '1970-01-01T00:00:00Z',
  '2026-01-01T00:00:00+14:00', '0001-01-01T12:00:00+11:59', '2026-11-22T10:00:00.123456789Z', '2024-02-29T23:59:59Z',
];
const DATE_INVALID = ['0000-01-01', '0000-12-31', '2026-02-30', '2026-1-1', '20260101', '2026-01-01T00:00:00Z', '10000-01-01', '-0001-01-01', 'today'];
const DATE_VALID = ['0001-01-01', '0001-01-02', '0001-01-31', '9999-12-31', '9999-12-01', '2024-02-29', '1970-01-01'];

function values(field: Field, fixture: Fixture, where: 'path' | 'query' | 'body'): { invalid: unknown[]; unknown: unknown[]; valid: unknown[] } {
  const asText = where !== 'body';
  const wrongTypes = asText ? [] : [...WRONG_JSON_TYPES.filter((v) => typeof v !== typeof exampleOf(field, fixture)), ...(field.nullable ? [] : [null])];
  const kind = field.kind;
  switch (kind.type) {
    case 'id': {
      const ids = idValues(kind.prefix, fixture);
      // Markets are the catalog's, shared by every workspace: another one is as valid.
      return { invalid: [...ids.invalid, ...wrongTypes], unknown: ids.unknown, valid: kind.prefix === 'mkt' ? [fixture.ids.otherMarket] : [] };
    }
    case 'decimal':
      return { invalid: [...DECIMAL_INVALID, ...NULS, ...(asText ? [] : [1, 0.5, 1e21]), ...wrongTypes], unknown: [], valid: DECIMAL_VALID };
    case 'timestamp':
      return { invalid: [...TIMESTAMP_INVALID, ...NULS, ...LONE_SURROGATES, ...wrongTypes], unknown: [], valid: TIMESTAMP_VALID };
    case 'date':
      return { invalid: [...DATE_INVALID, ...NULS, ...wrongTypes], unknown: [], valid: DATE_VALID };
    case 'integer': {
      const outside = [kind.min - 1, kind.max + 1, 1.5, -0.5, 1e308, ...BIG_INTEGERS.filter((n) => n < kind.min || n > kind.max)];
      const inside = [kind.min, kind.max, ...BIG_INTEGERS.filter((n) => n >= kind.min && n <= kind.max)];
      return asText
        ? { invalid: outside.map(String), unknown: [], valid: inside.map(String) }
        : { invalid: [...outside, ...inside.map(String), 'NaN', ...wrongTypes.filter((v) => typeof v !== 'number')], unknown: [], valid: [...inside, -0] };
    }
    case 'enum':
      return {
        invalid: ['', kind.values[0].toUpperCase(), ` ${kind.values[0]}`, `${kind.values[0]}\u0000`, 'unknown', kind.values.join(','), ...wrongTypes],
        unknown: [],
        valid: kind.values,
      };
    case 'boolean':
      return { invalid: ['true', 'false', 1, 0, 'yes', ...(asText ? [] : [null, [], {}])], unknown: [], valid: [true, false] };
    case 'enumArray':
      return {
        invalid: [[], ['x'], kind.values[0], [1], [[kind.values[0]]], [kind.values[0], '\u0000'], [null], Array(2000).fill('x'), null],
        unknown: [],
        valid: [[kind.values[0], kind.values[0]], kind.values, [kind.values[kind.values.length - 1]]],
      };
    case 'limit':
      return { invalid: ['0', '201', '-1', '1.5', 'abc', '', '99999', '1e2', ' 5', '٣', '00000'], unknown: [], valid: ['1', '200', '0050', '007'] };
    case 'cursor':
      return {
        invalid: [...NULS, ...LONE_SURROGATES, 'x'.repeat(513)],
        unknown: [],
        valid: ['', 'x', 'eyJpZCI6Im9yZF8wMSJ9', 'eyJ9', '!!!!', 'x'.repeat(512), ...STRANGE_TEXT, Buffer.from('{"id":"\' OR 1=1"}').toString('base64url')],
      };
    case 'string':
      return {
        invalid: [...(kind.min > 0 ? [''] : []), 'x'.repeat(kind.max + 1), '😀'.repeat(Math.ceil((kind.max + 1) / 2)), ...NULS, ...LONE_SURROGATES, ...wrongTypes],
        unknown: [],
        valid: [...STRANGE_TEXT, 'x'.repeat(kind.max), ...(kind.max >= 2 ? ['😀'.repeat(Math.floor(kind.max / 2))] : []), '   ', 'Ωmega ☃ 中文 العربية'],
      };
  }
}

/** A valid value of a field, for the request every change starts from. */
function exampleOf(field: Field, fixture: Fixture): unknown {
  const kind = field.kind;
  switch (kind.type) {
    case 'id':
      return ({ sa: fixture.ids.subaccount, mkt: fixture.ids.market, ord: fixture.ids.order, cxo: fixture.ids.complexOrder, key: fixture.ids.spareApiKey } as Record<string, string>)[kind.prefix];
    case 'decimal':
      return '1';
    case 'timestamp':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'integer':
      return Math.max(kind.min, 1);
    case 'enum':
      return kind.values[0];
    case 'boolean':
      return false;
    case 'enumArray':
      return [kind.values[0]];
    case 'limit':
      return '10';
    case 'cursor':
      return '';
    case 'string':
      return 'x'.repeat(Math.max(kind.min, 1));
  }
}

/** Values the core refuses although they pass the gateway's schema (a 4xx, never a write). */
const CORE_REFUSED: Record<string, Record<string, unknown[]>> = {
  PlaceOrder: { quantity: ['0', '-1', '-0.000001', '1000001', '999999999999999999.999999'], price: ['0', '1', '-0.01', '1.5', '999999999999999999.999999', '-999999999999999999.999999'] },
  AmendOrder: { quantity: ['0', '-1', '-0.000001', '1000001', '999999999999999999.999999'], price: ['0', '1', '-0.01', '1.5', '999999999999999999.999999', '-999999999999999999.999999'] },
  PlaceComplexOrder: { quantity: ['0', '-1', '-0.000001'] },
  CreateSubaccount: { starting_balance: ['-1', '-0.000001', '-999999999999999999.999999'] },
  UpdateRiskLimits: Object.fromEntries(['max_order_notional', 'max_position_per_market', 'max_gross_exposure', 'max_daily_realized_loss'].map((f) => [f, ['-1', '-0.000001']])),
  AttachExchangeCredential: { key_id: ['not-a-uuid', ''], environment: ['staging', 'PRODUCTION'] },
};

// ---------------------------------------------------------------------------------------------
// Requests in the making, and the changes made to them.

type Credential = 'apiKey' | 'dashboard' | 'readOnly' | 'session' | 'sessionNoCsrf' | 'none' | { authorization?: string; cookie?: string; csrf?: string };

interface Draft {
  spec: RouteSpec;
  method: string;
  pathParams: Record<string, string>;
  /** Applied to the built path: another spelling of it. */
  pathSpelling?: (path: string) => string;
  query: [string, string][];
  body: Record<string, unknown>;
  rawBody?: { text: string; contentType: string | null };
  headers: Record<string, string>;
  credential: Credential;
}

interface Change {
  name: string;
  apply(draft: Draft): void;
}

/** A body field's change; a raw body set by an earlier change gives way to it (the field's change must count). */
const setBody = (name: string, value: unknown): Change['apply'] => (d) => {
  d.rawBody = undefined;
  // Defined, not assigned: `__proto__` must become a field of the JSON, not the object's prototype.
  Object.defineProperty(d.body, name, { value, enumerable: true, writable: true, configurable: true });
};
const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…(${text.length})` : text;
};

/** Raw bodies no route accepts (the jsonBody middleware refuses them before any route reads them). */
const RAW_BODIES: { text: string; contentType: string | null }[] = [
  { text: '{', contentType: 'application/json' },
  { text: '{"a":1,}', contentType: 'application/json' },
  { text: "{'a':1}", contentType: 'application/json' },
  { text: '[]', contentType: 'application/json' },
  { text: '"text"', contentType: 'application/json' },
  { text: '42', contentType: 'application/json' },
  { text: 'null', contentType: 'application/json' },
  { text: 'true', contentType: 'application/json' },
  { text: '\u0000', contentType: 'application/json' },
  { text: '{"a":"\\ud800"', contentType: 'application/json' },
  { text: '['.repeat(20_000) + ']'.repeat(20_000), contentType: 'application/json' },
  { text: '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000), contentType: 'application/json' },
  { text: `{"name":"${'x'.repeat(70_000)}"}`, contentType: 'application/json' },
  { text: 'name=x', contentType: 'application/x-www-form-urlencoded' },
  { text: '{"name":"x"}', contentType: 'text/plain' },
  { text: '<xml/>', contentType: 'application/xml' },
  { text: '{"name":"x"}', contentType: null },
  { text: '{"name":"x"}', contentType: 'multipart/form-data; boundary=x' },
];

/** A JSON object, however written: a route without a body reads none of it, so it refuses nothing there. */
const isJsonObject = (raw: { text: string; contentType: string | null }) => {
  if (!raw.contentType?.startsWith('application/json')) return false;
  try {
    const value: unknown = JSON.parse(raw.text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && raw.text.length <= 64 * 1024;
  } catch {
    return false;
  }
};

/** Raw bodies the gateway may read as JSON: a byte-order mark, a charset it decodes as UTF-8 anyway, spacing. */
const ODD_BODIES: { text: string; contentType: string | null }[] = [
  { text: '\ufeff{"name":"x"}', contentType: 'application/json' },
  { text: '{"name":"x"}', contentType: 'application/json; charset=utf-16' },
  { text: '{"name":"x"}', contentType: 'APPLICATION/JSON' },
  { text: ' \n\t{ "name" : "x" } \n', contentType: 'application/json' },
  { text: '{"name":"x","name":"y"}', contentType: 'application/json' },
  { text: '', contentType: 'application/json' },
  { text: '   ', contentType: 'application/json' },
];

/** Changes that make any request of the route refused (4xx). */
function refusingChanges(spec: RouteSpec, fixture: Fixture): fc.Arbitrary<Change> {
  const arbitraries: fc.Arbitrary<Change>[] = [];
  const { route } = spec;
  const coreRefused = CORE_REFUSED[route.operation] ?? {};
  for (const field of spec.body) {
    const pool = values(field, fixture, 'body');
    const refused = [...pool.invalid, ...pool.unknown, ...(coreRefused[field.name] ?? [])];
    if (refused.length) arbitraries.push(fc.constantFrom(...refused).map((v) => ({ name: `body.${field.name}=${show(v)}`, apply: setBody(field.name, v) })));
    if (field.required) {
      arbitraries.push(fc.constant({ name: `body.${field.name} missing`, apply: (d: Draft) => void ((d.rawBody = undefined), delete d.body[field.name]) }));
    }
  }
  if (route.body) {
    arbitraries.push(
      fc.tuple(fc.constantFrom('unknown', '__proto__', 'constructor', 'a\u0000b', 'Subaccount_Id', 'subaccountId', ''), fc.constantFrom<unknown>(1, 'x', null, {}, []))
        .map(([name, v]) => ({ name: `body.${show(name)} unknown`, apply: setBody(name, v) })),
    );
  }
  for (const field of spec.path) {
    const pool = values(field, fixture, 'path');
    arbitraries.push(fc.constantFrom(...pool.invalid, ...pool.unknown).map((v) => ({ name: `path.${field.name}=${show(v)}`, apply: (d: Draft) => void (d.pathParams[field.name] = String(v)) })));
  }
  arbitraries.push(
    fc.tuple(fc.constantFrom('unknown', 'LIMIT', 'subaccount_id[]', '__proto__', 'a\u0000', ''), fc.constantFrom('1', '', '\u0000', 'x'.repeat(3000)))
      .filter(([name]) => !spec.query.some((q) => q.name === name))
      .map(([name, v]) => ({ name: `query.${show(name)}=${show(v)} unknown`, apply: (d: Draft) => void d.query.push([name, v]) })),
  );
  for (const field of spec.query) {
    const example = String(exampleOf(field, fixture));
    arbitraries.push(fc.constant({ name: `query.${field.name} twice`, apply: (d: Draft) => void d.query.push([field.name, example], [field.name, example]) }));
  }
  const rawBodies = RAW_BODIES.filter((raw) => route.body !== undefined || !isJsonObject(raw));
  arbitraries.push(fc.constantFrom(...rawBodies).map((raw) => ({ name: `raw body ${show(raw.text)} as ${raw.contentType}`, apply: (d: Draft) => void (d.rawBody = raw) })));
  const credentials = refusingCredentials(route);
  if (credentials.length) arbitraries.push(fc.constantFrom(...credentials).map((c) => ({ name: `credential ${show(c)}`, apply: (d: Draft) => void (d.credential = c) })));
  if (route.idempotent) {
    arbitraries.push(
      fc.constantFrom('', ' ', '   ', '\t', 'a b', 'x'.repeat(256), 'caf\u00e9', '\u00ff').map((key) => ({ name: `Idempotency-Key ${show(key)}`, apply: (d: Draft) => void (d.headers['idempotency-key'] = key) })),
    );
  }
  if (route.auth === 'dashboard' || route.auth === 'session' || (route.session && route.auth === 'api_key')) {
    arbitraries.push(
      fc.constantFrom('staging', 'TEST', 'Live', 'live,test', 'test test', '\u00e9').map((env) => ({
        name: `X-Environment ${show(env)} as the dashboard`,
        apply: (d: Draft) => {
          d.headers['x-environment'] = env;
          if (route.auth === 'api_key') d.credential = 'session';
        },
      })),
    );
  }
  // A method the route does not take (405): PATCH where the route is not an amend, TRACE anywhere.
  const otherMethods = ['PATCH', 'TRACE'].filter((method) => method !== route.method);
  arbitraries.push(fc.constantFrom(...otherMethods).map((method) => ({ name: `method ${method}`, apply: (d: Draft) => void (d.method = method) })));
  return fc.oneof(...arbitraries);
}

function refusingCredentials(route: Route): Credential[] {
  const garbage: Credential[] = [
    'none', { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: `Bearer mk_test_${'A'.repeat(40)}` },
    { authorization: `Bearer mk_live_${'b'.repeat(39)}` }, { authorization: `Bearer mk_dash_${'c'.repeat(40)}` }, { authorization: 'Basic YTpi' },
    { authorization: `Bearer ${'x'.repeat(8000)}` }, { authorization: 'Bearer mk_test_\u00e9' }, { cookie: 'mk_session=garbage' },
    { cookie: `mk_session=${'a'.repeat(4000)}` }, { cookie: 'mk_session=' },
  ];
  // Sign-in takes no credential: nothing to get wrong. The others: nothing, garbage, or the wrong
  // kind (a dashboard token where an API key goes, a read-only token or a page without its CSRF
  // token where a change needs more).
  if (route.auth === 'none') return [];
  if (route.auth === 'session') return [...garbage, 'sessionNoCsrf', { cookie: 'x=y' }, { cookie: 'mk_session=garbage', csrf: 'garbage' }];
  if (route.auth === 'dashboard') return [...garbage, 'apiKey', 'readOnly', 'sessionNoCsrf'];
  return [...garbage, 'dashboard', route.session ? 'sessionNoCsrf' : 'session'];
}

/** Changes of any kind: the refusing ones, values at the limits, and harmless headers. */
function anyChanges(spec: RouteSpec, fixture: Fixture): fc.Arbitrary<Change> {
  return fc.oneof({ weight: 2, arbitrary: refusingChanges(spec, fixture) }, { weight: 3, arbitrary: edgeChanges(spec, fixture) });
}

/** Changes to values at the limits that validation lets through, and headers that change nothing. */
function edgeChanges(spec: RouteSpec, fixture: Fixture): fc.Arbitrary<Change> {
  const arbitraries: fc.Arbitrary<Change>[] = [];
  for (const field of spec.body) {
    const pool = values(field, fixture, 'body');
    if (pool.valid.length) arbitraries.push(fc.constantFrom(...pool.valid).map((v) => ({ name: `body.${field.name}=${show(v)}`, apply: setBody(field.name, v) })));
    if (field.nullable) arbitraries.push(fc.constant({ name: `body.${field.name}=null`, apply: setBody(field.name, null) }));
  }
  for (const field of spec.query) {
    const pool = values(field, fixture, 'query');
    arbitraries.push(
      fc.constantFrom(...pool.valid, ...pool.invalid, ...pool.unknown, String(exampleOf(field, fixture))).map((v) => ({
        name: `query.${field.name}=${show(v)}`,
        apply: (d: Draft) => void d.query.push([field.name, String(v)]),
      })),
    );
  }
  if (spec.route.idempotent) {
    arbitraries.push(fc.string({ unit: fc.constantFrom(...'!#$%&*+-.0123456789:;<=>?@ABCXYZ^_`abcxyz|~'.split('')), minLength: 1, maxLength: 255 }).map((key) => ({
      name: `Idempotency-Key ${show(key)}`, apply: (d: Draft) => void (d.headers['idempotency-key'] = key),
    })));
  }
  arbitraries.push(
    fc.constantFrom('a b<script>', 'x'.repeat(129), '', 'short', 'ok-request-id-123', '\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9').map((id) => ({ name: `X-Request-Id ${show(id)}`, apply: (d: Draft) => void (d.headers['x-request-id'] = id) })),
    fc.constantFrom('*/*', 'text/html', 'application/xml', '', 'application/json;q=0').map((accept) => ({ name: `Accept ${show(accept)}`, apply: (d: Draft) => void (d.headers.accept = accept) })),
    fc.constantFrom<(p: string) => string>((p) => `${p}/`, (p) => p.toUpperCase(), (p) => `/${p}`, (p) => `${p}/..`, (p) => p.replace('/v1/', '/v1/./'), (p) => `${p}%2F`, (p) => `${p};x=1`)
      .map((spelling) => ({ name: `path spelled ${spelling.toString().replace(/\s+/g, ' ')}`, apply: (d: Draft) => void (d.pathSpelling = spelling) })),
    fc.constantFrom('OPTIONS', 'HEAD').map((method) => ({ name: `method ${method}`, apply: (d: Draft) => void (d.method = method) })),
    fc.constantFrom(...ODD_BODIES).map((raw) => ({ name: `raw body ${show(raw.text)} as ${raw.contentType}`, apply: (d: Draft) => void (d.rawBody = raw) })),
    fc.constantFrom('x-forwarded-for', 'forwarded', 'x-forwarded-proto', 'x-real-ip').chain((name) =>
      fc.constantFrom('1.2.3.4', '', 'unknown, , 999.999.1.1', 'https').map((v) => ({ name: `${name} ${show(v)}`, apply: (d: Draft) => void (d.headers[name] = v) })),
    ),
  );
  return fc.oneof(...arbitraries);
}

// ---------------------------------------------------------------------------------------------
// The request every change starts from, and turning a draft into a request.

function baseDraft(spec: RouteSpec, fixture: Fixture): Draft {
  const { route } = spec;
  const pathParams: Record<string, string> = {};
  for (const field of spec.path) pathParams[field.name] = field.kind.type === 'enum' ? 'kalshi' : String(exampleOf(field, fixture));
  // Routes that act on a resource start from a spare one: a change predicted to be refused that was
  // not would show in the corpus's checks without ending the fixture.
  if (route.operation === 'DeleteSubaccount' || route.operation === 'AttachExchangeCredential' || route.operation === 'DeleteExchangeCredential') {
    pathParams.id = fixture.ids.spareSubaccount;
  }
  const body: Record<string, unknown> = {};
  for (const field of spec.body) if (field.required) body[field.name] = exampleOf(field, fixture);
  Object.assign(body, BASE_BODIES[route.operation]?.(fixture) ?? {});
  return {
    spec,
    method: route.method,
    pathParams,
    query: [],
    body,
    headers: {},
    credential: route.auth === 'api_key' ? 'apiKey' : route.auth === 'dashboard' ? 'dashboard' : route.auth === 'session' ? 'session' : route.sessionToken ? 'session' : 'none',
  };
}

const BASE_BODIES: Record<string, (fixture: Fixture) => Record<string, unknown>> = {
  PlaceOrder: (f) => ({ subaccount_id: f.ids.subaccount, market_id: f.ids.market, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '1' }),
  AmendOrder: () => ({ price: '0.01' }),
  PlaceComplexOrder: (f) => ({ subaccount_id: f.ids.subaccount, market_id: f.ids.market, side: 'yes', action: 'buy', quantity: '1', strategy: 'passive', limit_price: '0.01' }),
  PreviewComplexOrder: (f) => ({ subaccount_id: f.ids.subaccount, market_id: f.ids.market, side: 'yes', action: 'buy', quantity: '5', strategy: 'sweep' }),
  UpdateRiskLimits: () => ({ max_open_orders: 500 }),
  CreateSubaccount: () => ({ name: 'hostile' }),
  SetKillSwitch: () => ({ enabled: false }),
  CreateApiKey: () => ({ name: 'hostile', environment: 'test' }),
  AttachExchangeCredential: () => ({ key_id: '0b9f7e0e-6f2b-4f8e-9b8a-1c2d3e4f5a6b', private_key: 'not a PEM key', environment: 'demo' }),
  SignIn: (f) => ({ email: f.userEmail, password: 'not the password, never' }),
  ChangePassword: () => ({ current_password: 'not the password, never', new_password: 'a new password of some length' }),
};

/**
 * Routes whose starting request is itself refused: sign-in with a wrong password, a password change
 * that does not prove the current one, credentials that are not a key.
 */
const BASE_REFUSED = new Set(['SignIn', 'ChangePassword', 'AttachExchangeCredential']);

/** Percent-encoding that also carries what encodeURIComponent refuses (an unpaired surrogate, as its WTF-8 bytes). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((c) => {
      const code = c.charCodeAt(0);
      if (c.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      }
      return encodeURIComponent(c);
    }).join('');
  }
}

function toRequest(draft: Draft, fixture: Fixture, label: string, mustRefuse: boolean): HostileRequest {
  let path = draft.spec.route.path.replace(/\{(\w+)\}/g, (_m, name: string) => encode(draft.pathParams[name] ?? ''));
  if (draft.pathSpelling) path = draft.pathSpelling(path);
  if (draft.query.length) path += `?${draft.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
  const headers: Record<string, string> = { ...draft.headers };
  const credential = draft.credential;
  if (credential === 'apiKey') headers.authorization = `Bearer ${fixture.apiKey}`;
  else if (credential === 'dashboard') headers.authorization = `Bearer ${fixture.dashboardToken}`;
  else if (credential === 'readOnly') headers.authorization = `Bearer ${fixture.readOnlyDashboardToken}`;
  else if (credential === 'session' || credential === 'sessionNoCsrf') {
    headers.cookie = fixture.session.cookie;
    if (credential === 'session') headers['x-csrf-token'] = fixture.session.csrf;
  } else if (typeof credential === 'object') {
    if (credential.authorization !== undefined) headers.authorization = credential.authorization;
    if (credential.cookie !== undefined) headers.cookie = credential.cookie;
    if (credential.csrf !== undefined) headers['x-csrf-token'] = credential.csrf;
  }
  let body: string | undefined;
  if (draft.rawBody) {
    body = draft.rawBody.text;
    if (draft.rawBody.contentType !== null) headers['content-type'] = draft.rawBody.contentType;
  } else if (draft.spec.route.body && draft.method !== 'GET' && draft.method !== 'HEAD') {
    body = JSON.stringify(draft.body);
    headers['content-type'] = 'application/json';
  }
  return { label, method: draft.method, path, headers, body, mustRefuse };
}

// ---------------------------------------------------------------------------------------------
// The corpora.

/**
 * `refused`: every route, `perRoute` requests each. A request to a route that writes carries at
 * least one change that gets it refused (applied last, so nothing undoes it), and must be refused;
 * a read carries one to three changes of any kind. `edge`: the routes that write, with values at
 * the limits the server may accept.
 */
export function routeCorpus(kind: CorpusKind, fixture: Fixture, perRoute: number, seed: number): HostileRequest[] {
  const requests: HostileRequest[] = [];
  routeSpecs().forEach((spec, index) => {
    if (kind === 'edge' && !spec.writes) return;
    const baseRefused = BASE_REFUSED.has(spec.route.operation);
    const arbitrary: fc.Arbitrary<{ changes: Change[]; mustRefuse: boolean }> =
      kind === 'edge'
        ? fc.array(edgeChanges(spec, fixture), { minLength: 1, maxLength: 2 }).map((changes) => ({ changes, mustRefuse: false }))
        : spec.writes && !baseRefused
          ? fc.tuple(fc.array(anyChanges(spec, fixture), { maxLength: 2 }), refusingChanges(spec, fixture)).map(([others, last]) => ({ changes: [...others, last], mustRefuse: true }))
          : fc.array(anyChanges(spec, fixture), { minLength: 1, maxLength: 3 }).map((changes) => ({ changes, mustRefuse: spec.writes }));
    for (const { changes, mustRefuse } of fc.sample(arbitrary, { seed: seed + index, numRuns: perRoute })) {
      const draft = baseDraft(spec, fixture);
      for (const change of changes) change.apply(draft);
      const label = `${spec.route.method} ${spec.route.path}: ${changes.map((c) => c.name).join('; ')}`;
      // OPTIONS is answered by the router (200 with Allow), HEAD is a GET: neither carries anything out.
      requests.push(toRequest(draft, fixture, label, mustRefuse && draft.method !== 'OPTIONS' && draft.method !== 'HEAD'));
    }
  });
  return requests;
}

/** Requests outside the route table: unknown paths and methods, the OpenAPI document, the dashboard's page. */
export function strayCorpus(fixture: Fixture, count: number, seed: number): HostileRequest[] {
  const paths = fc.oneof(
    fc.constantFrom(
      '/', '/v1', '/v1/', '/v2/orders', '/v1/openapi.json', '/v1/openapi.json?x=%00', '/dashboard', '/dashboard/', '/dashboard/%00', '/dashboard/..%2F..%2Fpackage.json',
      '/dashboard/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/dashboard/x.js', '/dashboard/' + 'a/'.repeat(500), '/v1/orders/%ZZ', '/v1/orders/%', '/v1/orders/%C0%AF',
      '/v1/orders/%ED%A0%80', '/v1/markets?q=%FF%FE', '/v1/markets?q=%', '/v1/markets?%00=1', '/v1/markets?q[]=x', '/v1/markets?q[a]=x', '/v1/markets?&&&',
      '/v1/complex_orders/preview', '/v1/orders/preview', '/graphql', '/analyst', '/analyst/graphql/', '/%00', '/' + 'x'.repeat(8000), '/v1/orders/' + '%00'.repeat(100),
      '/.env', '/v1/../package.json', '/v1/%2e%2e/package.json', '/favicon.ico',
    ),
    fc.stringMatching(/^\/v1\/[a-z_]{1,12}(\/[a-z0-9_%]{1,20}){0,3}$/),
  );
  const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
  const auths = fc.constantFrom<Record<string, string>>({}, { authorization: `Bearer ${fixture.apiKey}` }, { authorization: `Bearer ${fixture.dashboardToken}` }, { cookie: fixture.session.cookie });
  return fc.sample(fc.tuple(paths, methods, auths, fc.boolean()), { seed, numRuns: count }).map(([path, method, headers, withBody]) => {
    const body = withBody && method !== 'GET' && method !== 'HEAD' ? '{"subaccount_id":"\\u0000"}' : undefined;
    return {
      label: `${method} ${path.slice(0, 80)}`,
      method,
      path,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body,
      // A stray write may land on a route (OPTIONS answers 200, a known path its own way): not predicted.
      mustRefuse: false,
    };
  });
}

const DEEP = (n: number, open: string, close: string, inner = '') => open.repeat(n) + inner + close.repeat(n);

/** Documents for the analysts' GraphQL, and the variables they run with. */
type GraphQLParams = { query?: unknown; variables?: unknown; operationName?: unknown; extensions?: unknown };

function analystDocuments(fixture: Fixture): fc.Arbitrary<GraphQLParams> {
  const { ids } = fixture;
  const deep = fc.constantFrom(65, 100, 1000, 3000, 20_000).chain((n) =>
    fc.constantFrom<GraphQLParams>(
      { query: `{ workspace ${DEEP(n, '{ id ', '}')} }` },
      { query: `{ markets(q: ${DEEP(n, '[', ']', '"x"')}) { data { id } } }` },
      { query: `{ markets(q: ${DEEP(n, '{a: ', '}', '1')}) { data { id } } }` },
      { query: `query ${DEEP(n, '(', ')')} { workspace { id } }` },
      { query: `{ workspace { id } } # ${'{'.repeat(n)}` },
      { query: `{ workspace { name } } ${'"""' + '{'.repeat(n) + '"""'}` },
    ),
  );
  const literal = fc.constantFrom(
    `{ order(id: "ord_\\u0000") { id } }`,
    `{ markets(q: "fed\\u0000") { data { id } } }`,
    `{ subaccount(id: """sa_\u0000""") { id } }`,
    `{ orders(since: "0000-01-01T00:00:00Z") { data { id } } }`,
    `{ orders(since: "9999-12-31T23:59:59-01:00") { data { id } } }`,
    `{ orders(limit: 2147483648) { data { id } } }`,
    `{ orders(limit: 99999999999999999999) { data { id } } }`,
    `{ orders(limit: 1.5) { data { id } } }`,
    `{ pnlHistory(from: "0000-01-01", to: "0001-01-05") { data { date } } }`,
    `{ pnlHistory(to: "0001-01-05") { data { date } } }`,
    `{ pnlHistory(from: "0001-01-01", to: "0001-01-02") { data { date } } }`,
    `{ executionAnalytics(to: "0001-01-02T00:00:00Z") }`,
    `{ executionAnalytics(from: "0001-01-01T00:00:00Z", to: "0001-01-02T00:00:00Z") }`,
    `{ executionAnalytics(from: "9999-12-30T00:00:00Z", to: "9999-12-31T23:59:59.999Z") }`,
    `{ riskLimits(subaccountId: "${ids.subaccount}") { maxOpenOrders maxOrderNotional } }`,
    `{ market(id: "${ids.market}") { id title } }`,
    `{ __schema { types { name fields { name } } } }`,
    `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: workspace { id }`).join(' ')} }`,
    `{ subaccounts(limit: 200) { data { id orders(limit: 200) { id } } } }`,
    `{ workspace { id `,
    `{ workspace { id } } }`,
    `query { workspace { id } } query { workspace { id } }`,
    `subscription { workspace { id } }`,
    `{ nope }`,
    `{ workspace(id: 1) { id } }`,
    `"""unterminated`,
    `{ markets(q: "\\ud800") { data { id } } }`,
    `{ markets(q: "\\u{D800}") { data { id } } }`,
    '',
    ' ',
    '\u0000',
    `mutation { updateRiskLimits(subaccountId: "${fixture.foreign.subaccount}", input: { maxOpenOrders: 1 }) { maxOpenOrders } }`,
    `mutation { cancelOrder(id: "${fixture.foreign.order}") { id } }`,
    `mutation { createSubaccount(input: { name: "a\\u0000b" }) { id } }`,
    `mutation { updateRiskLimits(subaccountId: "${ids.subaccount}", input: { maxOrderNotional: "999999999999999999.9999999" }) { maxOpenOrders } }`,
    `mutation { updateRiskLimits(subaccountId: "${ids.subaccount}", input: { maxOpenOrders: 2147483648 }) { maxOpenOrders } }`,
    `mutation { updateRiskLimits(subaccountId: "${ids.subaccount}", input: { maxOrdersPerMinute: 2147483647 }) { maxOpenOrders } }`,
    `mutation { updateRiskLimits(subaccountId: "${ids.subaccount}", input: { maxGrossExposure: "-1" }) { maxOpenOrders } }`,
    `mutation { placeOrder(input: { subaccountId: "${ids.subaccount}", marketId: "${ids.market}", side: yes, action: buy, type: limit, price: "0.01", quantity: "1000001" }) { id } }`,
    `mutation { setKillSwitch(enabled: "yes") { id } }`,
    `mutation { signIn(email: "${fixture.userEmail}", password: "x") { token } }`,
  ).map((query): GraphQLParams => ({ query }));
  const withVariables = fc.tuple(
    fc.constantFrom(
      'query($id: String!) { order(id: $id) { id } }',
      'query($id: ID!) { subaccount(id: $id) { id } }',
      'query($since: DateTime) { orders(since: $since) { data { id } } }',
      'query($from: DateTime, $to: DateTime) { executionAnalytics(from: $from, to: $to) }',
      'query($from: String, $to: String) { pnlHistory(from: $from, to: $to) { data { date } } }',
      'query($limit: Int) { fills(limit: $limit) { data { id } } }',
      'query($q: String) { markets(q: $q) { data { id } } }',
      'query($cursor: String) { orders(cursor: $cursor) { data { id } } }',
      `mutation($input: RiskLimitsInput!) { updateRiskLimits(subaccountId: "${fixture.foreign.subaccount}", input: $input) { maxOpenOrders } }`,
      `mutation($n: Int) { updateRiskLimits(subaccountId: "${fixture.foreign.subaccount}", input: { maxOpenOrders: $n }) { maxOpenOrders } }`,
    ),
    fc.constantFrom<unknown>(
      '\u0000', 'a\u0000b', '\ud800', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '0000-01-01', '0001-01-01', '10000-01-01',
      2 ** 31, 2 ** 53, -(2 ** 31) - 1, 1.5, 1e308, 'x'.repeat(10_000), null, [], {}, true, { maxOpenOrders: 2 ** 31 }, { maxOrderNotional: '1e5' },
      { maxOrderNotional: 'a\u0000' }, { nested: { deeper: '\u0000' } }, ids.order, ids.subaccount, '', ' ',
    ),
  ).map(([query, value]) => {
    const name = /\$(\w+)/.exec(query)?.[1] ?? 'x';
    return { query, variables: { [name]: value } } as GraphQLParams;
  });
  const malformed = fc.constantFrom<GraphQLParams>(
    { query: 1 }, { query: null }, { query: ['{ workspace { id } }'] }, { query: { a: 1 } }, {},
    { query: '{ workspace { id } }', variables: 'not an object' }, { query: '{ workspace { id } }', variables: [] },
    { query: '{ workspace { id } }', variables: { ['a\u0000']: 1 } }, { query: '{ workspace { id } }', operationName: 'Missing' },
    { query: '{ workspace { id } }', operationName: '\u0000' }, { query: '{ workspace { id } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } },
    { query: '{ workspace { id } }', variables: { v: DEEP(1, '', '', '\u0000') } },
  );
  return fc.oneof({ weight: 2, arbitrary: deep }, { weight: 4, arbitrary: literal }, { weight: 4, arbitrary: withVariables }, { weight: 1, arbitrary: malformed });
}

/**
 * The analysts' GraphQL: POST and GET, with a full or read-only dashboard token or the session
 * cookie. In `refused` corpora no mutation could be carried out (each acts on another workspace's
 * ids or carries a refused value), so nothing may be written.
 */
export function analystCorpus(fixture: Fixture, count: number, seed: number): HostileRequest[] {
  const credentials = fc.constantFrom<Record<string, string>>(
    { authorization: `Bearer ${fixture.dashboardToken}` },
    { authorization: `Bearer ${fixture.readOnlyDashboardToken}` },
    { cookie: fixture.session.cookie },
    { authorization: `Bearer ${fixture.dashboardToken}`, 'x-environment': 'live' },
    { authorization: `Bearer ${fixture.dashboardToken}`, 'x-environment': 'nope' },
  );
  return fc.sample(fc.tuple(analystDocuments(fixture), credentials, fc.nat(9)), { seed, numRuns: count }).map(([params, headers, pick]) => {
    if (pick === 0 && typeof params.query === 'string' && params.query.length < 6000) {
      const search = new URLSearchParams();
      search.set('query', params.query);
      if (params.variables !== undefined) search.set('variables', JSON.stringify(params.variables));
      return { label: `GET /analyst/graphql ${show(params)}`, method: 'GET', path: `/analyst/graphql?${search.toString()}`, headers, mustRefuse: false };
    }
    return {
      label: `POST /analyst/graphql ${show(params)}`,
      method: 'POST',
      path: '/analyst/graphql',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(params),
      mustRefuse: false,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// What a hostile tenant escalates with (issue 25), written out rather than generated.

const FULL_INTROSPECTION = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
const TREE = 'fragment Tree on __Schema { types { name kind fields { name type { name kind ofType { name kind } } } } }';
/** An event id of the right shape past the log's bigint. */
const PAST_BIGINT_EVENT = 'evt_00000009223372036854775808';

/**
 * Reads that once stalled the service or answered 500: the 1,000-alias introspection bomb (with
 * every analyst credential, by POST and GET), aliased full introspections, variables and bodies
 * nested thousands deep (sent as raw text: JSON.stringify itself overflows on them), and event ids
 * past the bigint range on every way in (the list, the stream, Last-Event-ID, the analysts' query
 * and subscription, a forged cursor). None writes anything.
 */
export function escalationCorpus(fixture: Fixture): HostileRequest[] {
  const analysts: Record<string, string>[] = [
    { authorization: `Bearer ${fixture.dashboardToken}` },
    { authorization: `Bearer ${fixture.readOnlyDashboardToken}` },
    { cookie: fixture.session.cookie },
  ];
  const bomb = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: __schema { ...Tree }`).join(' ')} } ${TREE}`;
  const typeBomb = `{ ${Array.from({ length: 1500 }, (_, i) => `t${i}: __type(name: "Order") { name }`).join(' ')} }`;
  const fullTwice = `{ a: __schema { types { name } } b: __schema { types { name } } } ${FULL_INTROSPECTION}`;
  const documents: GraphQLParams[] = [
    { query: bomb },
    { query: typeBomb },
    { query: fullTwice },
    { query: `{ authenticateApiKey(secretHash: "${'a'.repeat(64)}") { keyId } }` },
    { query: `{ events(after: "${PAST_BIGINT_EVENT}") { data { id } } }` },
    { query: `{ events(cursor: "${Buffer.from('{"seq":"99999999999999999999"}').toString('base64url')}") { data { id } } }` },
  ];
  const deepVariables = (depth: number, open: string, close: string) => `{"query":"query($x: JSON) { workspace { id } }","variables":{"x":${DEEP(depth, open, close, '1')}}}`;
  const rawBodies = [deepVariables(5000, '{"a":', '}'), deepVariables(30_000, '[', ']'), `{"query":"{ workspace { id } }","extensions":${DEEP(5000, '{"a":', '}', '1')}}`];
  const requests: HostileRequest[] = [];
  for (const headers of analysts) {
    for (const params of documents) {
      requests.push({ label: `POST /analyst/graphql ${show(params)}`, method: 'POST', path: '/analyst/graphql', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(params), mustRefuse: false });
    }
    for (const body of rawBodies) {
      requests.push({ label: `POST /analyst/graphql nested ${body.slice(0, 60)}…`, method: 'POST', path: '/analyst/graphql', headers: { ...headers, 'content-type': 'application/json' }, body, mustRefuse: false });
    }
    const variables = encodeURIComponent(DEEP(200, '{"a":', '}', '1'));
    requests.push({ label: 'GET /analyst/graphql nested variables', method: 'GET', path: `/analyst/graphql?query=${encodeURIComponent('{ workspace { id } }')}&variables=${variables}`, headers, mustRefuse: false });
    const getBomb = `{${Array.from({ length: 200 }, (_, i) => `t${i}:__type(name:"Order"){name}`).join(' ')}}`;
    requests.push({ label: 'GET /analyst/graphql 200 aliases of __type', method: 'GET', path: `/analyst/graphql?query=${encodeURIComponent(getBomb)}`, headers, mustRefuse: false });
    requests.push({
      label: 'POST /analyst/graphql subscription after past bigint',
      method: 'POST',
      path: '/analyst/graphql',
      headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: `subscription { events(after: "${PAST_BIGINT_EVENT}") { id } }` }),
      mustRefuse: false,
    });
  }
  const apiKey = { authorization: `Bearer ${fixture.apiKey}` };
  for (const after of [PAST_BIGINT_EVENT, 'evt_99999999999999999999999999']) {
    requests.push({ label: `GET /v1/events?after=${after}`, method: 'GET', path: `/v1/events?after=${after}`, headers: apiKey, mustRefuse: true });
    requests.push({ label: `GET /v1/events/stream?after=${after}`, method: 'GET', path: `/v1/events/stream?after=${after}`, headers: apiKey, mustRefuse: true });
    requests.push({ label: `GET /v1/events/stream Last-Event-ID ${after}`, method: 'GET', path: '/v1/events/stream', headers: { ...apiKey, 'last-event-id': after }, mustRefuse: true });
  }
  const forged = Buffer.from('{"seq":"9223372036854775808"}').toString('base64url');
  requests.push({ label: 'GET /v1/events?cursor=<seq past bigint>', method: 'GET', path: `/v1/events?cursor=${forged}`, headers: apiKey, mustRefuse: true });
  requests.push({ label: 'GET /v1/webhook_endpoints/{id}/deliveries?cursor=<seq past bigint>', method: 'GET', path: `/v1/webhook_endpoints/whe_${'0'.repeat(26)}/deliveries?cursor=${forged}`, headers: apiKey, mustRefuse: true });
  for (const path of ['/v1/subaccounts', '/v1/orders', '/v1/complex_orders/preview', '/v1/webhook_endpoints']) {
    requests.push({ label: `POST ${path} body nested 5,000 deep`, method: 'POST', path, headers: { ...apiKey, 'content-type': 'application/json' }, body: `{"name":${DEEP(5000, '[', ']')}}`, mustRefuse: true });
  }
  return requests;
}

/**
 * Webhook endpoints at every form of special-purpose address (IANA's registries, and IPv6 forms
 * that carry an IPv4 address): registering one is accepted (where an address points is judged when
 * a delivery connects, after DNS), and delivering to one is refused (test/unit/addressFence.test.ts).
 */
export function addressFormCorpus(fixture: Fixture): HostileRequest[] {
  const hosts = [
    '192.0.2.1', '198.51.100.7', '203.0.113.9', '100.64.0.1', '192.88.99.2', '255.255.255.255',
    '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:0:a00:1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::a00:1]', '[2002:7f00:1::1]',
    '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', '[100::1]', '[2001:db8::1]', '[::7f00:1]',
  ];
  return hosts.map((host) => ({
    label: `POST /v1/webhook_endpoints at http://${host}/`,
    method: 'POST',
    path: '/v1/webhook_endpoints',
    headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://${host}/hook`, event_types: ['order.*'] }),
    mustRefuse: false,
  }));
}
