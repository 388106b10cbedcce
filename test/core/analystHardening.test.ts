/**
 * What keeps one analyst credential from stalling the service (docs/analyst-graphql.md, "Limits"):
 * introspection measured and bounded like any field (the 1,000-alias bomb refused before anything
 * runs, with a token and with the read-only session cookie), the operator's switch that turns it
 * off, the gateway's internal fields absent from the analysts' schema, variables nested too deep
 * refused, a cap on the documents one credential runs at once, and a cap on the answer's size.
 * Real gateway and core over loopback HTTP, on the run's PostgreSQL.
 */
import { getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { ANALYST_GRAPHQL_PATH } from '../../contract/endpoints';
import { analystSchemaOf } from '../../core/graphql/analystSchema';
import { GATEWAY_ONLY } from '../../core/graphql/context';
import { introspectionMeasure, introspectionPolicy, introspectionRefusal } from '../../core/graphql/introspectionLimits';
import { schema } from '../../core/graphql/schema';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { createUser } from '../../core/services/accounts/users';
import type { CoreTransport } from '../../gateway/coreClient';
import { REFUSAL_DELAY_MS } from '../../gateway/refusalDelay';
import { signIn } from '../support/dashboardSession';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf } from '../support/http';
import { OwnGateways, watchedTransport } from '../support/ownGateways';
import { until } from '../support/retryingClients';
import { startStack, type Stack } from '../support/stack';

const PATH = '/analyst/graphql';
const FULL_INTROSPECTION = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
const TREE = 'fragment Tree on __Schema { types { name kind fields { name type { name kind ofType { name kind } } } } }';
/** The bomb: 1,000 aliases of `__schema { ...Tree }` (about 24 KB). */
const BOMB = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: __schema { ...Tree }`).join(' ')} } ${TREE}`;

let stack: Stack;
let base: string;
let workspaceId: string;
const own = new OwnGateways(() => stack);
const gatewayWith = (overrides: Record<string, string>, transport?: CoreTransport) => own.start(testConfig(overrides), { transport });

const token = async (access: 'full' | 'read_only' = 'read_only') => (await createDashboardToken(stack.core.db, workspaceId, access)).secret;
const query = (url: string, credential: { key?: string; cookie?: string }, document: string, variables?: unknown) =>
  call(url, 'POST', PATH, { key: credential.key, body: { query: document, ...(variables === undefined ? {} : { variables }) }, headers: credential.cookie ? { cookie: credential.cookie } : {} });

beforeAll(async () => {
  stack = await startStack(testConfig());
  base = stack.gateways[0]!;
  workspaceId = (await buildWorkspace(stack.core.db, { name: 'Analyst hardening' })).workspace.id;
});
afterAll(async () => {
  await own.closeAll();
  await stack?.close();
});

describe('introspection is measured', () => {
  const analysts = analystSchemaOf(schema);
  const policy = introspectionPolicy(analysts, true);
  const errorsOf = (document: string) => {
    const refusal = introspectionRefusal(policy, analysts, parse(document));
    return refusal ? [refusal.message] : validate(analysts, parse(document), specifiedRules).map((e) => e.message);
  };

  it('the full introspection query fits its limits; two aliased copies, or 1,000 aliases of a small one, do not', () => {
    expect(errorsOf(FULL_INTROSPECTION)).toEqual([]);
    const twice = aliasedTwice(FULL_INTROSPECTION);
    expect(introspectionMeasure(analysts, parse(twice)).cost).toBeGreaterThan(policy.limits.cost);
    expect(errorsOf(twice)).toEqual([expect.stringMatching(/introspection (breadth|cost) is \d+, above the limit/)]);
    expect(errorsOf(BOMB)).toEqual([expect.stringMatching(/^The query's introspection breadth is 12000, above the limit of \d+/)]);
  });

  it('counts every alias, every fragment spread and every level of a list, at the root and inside', () => {
    const one = introspectionMeasure(analysts, parse('{ __type(name: "Order") { name fields { name } } }'));
    const aliased = introspectionMeasure(analysts, parse('{ a: __type(name: "Order") { name fields { name } } b: __type(name: "Order") { name fields { name } } }'));
    expect(aliased).toEqual({ breadth: one.breadth * 2, cost: one.cost * 2 });
    const spread = introspectionMeasure(analysts, parse('{ ...A ...A } fragment A on Query { __type(name: "Order") { name fields { name } } }'));
    expect(spread).toEqual(aliased);
    const inner = introspectionMeasure(analysts, parse('{ __type(name: "Order") { name a: fields { name } b: fields { name } } }'));
    expect(inner.cost).toBeGreaterThan(one.cost);
    // A list multiplies what it selects by the most items it can hold: fields of fields.
    const nested = introspectionMeasure(analysts, parse('{ __schema { types { fields { args { name } } } } }'));
    expect(nested.cost).toBeGreaterThan(100 * introspectionMeasure(analysts, parse('{ __schema { types { name } } }')).cost);
    expect(introspectionMeasure(analysts, parse('{ __typename workspace { id } }'))).toEqual({ breadth: 0, cost: 0 });
  });

  it('over HTTP: the bomb is refused before it runs, with a dashboard token and with the read-only session cookie', async () => {
    const email = `introspection-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId, email, password: 'a long enough password' });
    const page = await signIn(base, email, 'a long enough password');
    for (const credential of [{ key: await token('full') }, { cookie: page.cookie }]) {
      const refused = await query(base, credential, BOMB);
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/introspection breadth is 12000/), extensions: expect.objectContaining({ code: 'invalid_request', param: 'introspection' }) }),
      ]);
      const full = await query(base, credential, FULL_INTROSPECTION);
      expect(full.status).toBe(200);
      expect(full.body.data.__schema.queryType.name).toBe('Query');
    }
  });

  it('the gateway’s internal fields are absent from what analysts can see', async () => {
    const gatewayOnly = (type: 'Query' | 'Mutation') =>
      Object.values((type === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields())
        .filter((field) => field.extensions?.gatewayOnly === GATEWAY_ONLY.gatewayOnly)
        .map((field) => field.name);
    expect(gatewayOnly('Query')).toEqual(expect.arrayContaining(['authenticateApiKey', 'authenticateDashboardToken', 'authenticateSession']));
    expect(gatewayOnly('Mutation')).toEqual(expect.arrayContaining(['signIn', 'signOut', 'signOutEverywhere', 'changePassword']));
    const full = await query(base, { key: await token() }, FULL_INTROSPECTION);
    const types = full.body.data.__schema.types as { name: string; fields: { name: string }[] | null }[];
    const listed = (name: string) => types.find((type) => type.name === name)!.fields!.map((field) => field.name);
    expect(listed('Query')).toEqual(expect.arrayContaining(['workspace', 'orders', 'markets']));
    for (const name of gatewayOnly('Query')) expect(listed('Query')).not.toContain(name);
    for (const name of gatewayOnly('Mutation')) expect(listed('Mutation')).not.toContain(name);
    for (const internalType of ['KeyPrincipal', 'DashboardPrincipal', 'DashboardSession', 'SignedIn']) expect(types.map((t) => t.name)).not.toContain(internalType);
  });

  it('ANALYST_INTROSPECTION=off refuses __schema and __type (403), and leaves __typename and every query', async () => {
    const core = await startStack(testConfig({ ANALYST_INTROSPECTION: 'off' }));
    try {
      const key = await token();
      for (const document of ['{ __schema { queryType { name } } }', '{ __type(name: "Order") { name } }', FULL_INTROSPECTION]) {
        const refused = await query(core.gateways[0]!, { key }, document);
        expect(refused.status).toBe(403);
        expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/turned off/), extensions: { code: 'forbidden', param: 'introspection' } });
      }
      const plain = await query(core.gateways[0]!, { key }, '{ __typename workspace { id } }');
      expect(plain.status).toBe(200);
      expect(plain.body.data).toEqual({ __typename: 'Query', workspace: { id: workspaceId } });
    } finally {
      await core.close();
    }
  });
});

describe('every request’s work is bounded', () => {
  it('variables nested past the limit answer 400 naming variables, at the gateway and at the core', async () => {
    const key = await token();
    const deep = `{"query":"query($x: JSON) { workspace { id } }","variables":{"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
    expect(deep.length).toBeLessThan(64 * 1024);
    const posted = await call(base, 'POST', PATH, { key, rawBody: deep, headers: { 'content-type': 'application/json' } });
    expect(posted.status).toBe(400);
    expect(envelopeOf(posted)).toMatchObject({ code: 'invalid_request', param: 'variables', message: expect.stringMatching(/more than 32 levels deep/) });
    const variables = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
    const viaGet = await call(base, 'GET', `${PATH}?query=${encodeURIComponent('{ workspace { id } }')}&variables=${encodeURIComponent(variables)}`, { key });
    expect(viaGet.status).toBe(400);
    expect(viaGet.body.errors?.[0]).toMatchObject({ extensions: { code: 'invalid_request', param: 'variables' } });
    const rest = await call(base, 'POST', '/v1/subaccounts', { key: (await buildWorkspace(stack.core.db)).secret, rawBody: `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`, headers: { 'content-type': 'application/json' } });
    expect(rest.status).toBe(400);
    expect(envelopeOf(rest)).toMatchObject({ code: 'invalid_request', param: 'name' });
  });

  it('a credential runs at most ANALYST_CONCURRENCY_PER_CREDENTIAL documents at once; others are refused, not queued, and its neighbour is not', async () => {
    const held: (() => void)[] = [];
    // A core that holds the analysts' documents until the test lets them go (credential lookups pass).
    const holding = watchedTransport(stack, (request) =>
      request.path.startsWith(ANALYST_GRAPHQL_PATH) ? new Promise<void>((resolve) => held.push(resolve)) : undefined,
    );
    const url = await gatewayWith({ ANALYST_CONCURRENCY_PER_CREDENTIAL: '2', RATE_LIMIT_DEFAULT: '1000' }, holding);
    const [busy, neighbour] = [await token(), await token()];
    const first = [query(url, { key: busy }, '{ workspace { id } }'), query(url, { key: busy }, '{ workspace { id } }')];
    await until('two documents held', 10_000, async () => held.length === 2 || undefined);
    const third = await query(url, { key: busy }, '{ workspace { id } }');
    expect(third.status).toBe(429);
    expect(envelopeOf(third)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/At most 2 analyst queries may run at once per credential/) });
    expect(third.headers.get('retry-after')).toBe('1');
    const other = query(url, { key: neighbour }, '{ workspace { id } }');
    await until('the neighbour’s document held', 10_000, async () => held.length === 3 || undefined);
    held.splice(0).forEach((release) => release());
    expect((await Promise.all([...first, other])).map((r) => r.status)).toEqual([200, 200, 200]);
    const again = query(url, { key: busy }, '{ workspace { id } }');
    await until('the next document held', 10_000, async () => held.length === 1 || undefined);
    held.splice(0).forEach((release) => release());
    expect((await again).status).toBe(200);
  });

  it('ANALYST_RATE_LIMIT counts a credential’s documents before its lookup; its refusals come late, and cost no lookup', async () => {
    const lookups: string[] = [];
    const counting = watchedTransport(stack, (request) => {
      if (request.body?.includes('AuthenticateDashboardToken')) lookups.push(request.body);
    });
    const url = await gatewayWith({ ANALYST_RATE_LIMIT: '2', RATE_LIMIT_DEFAULT: '1000' }, counting);
    const key = await token();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 6 }, () => query(url, { key }, '{ workspace { id } }')));
    const statuses = answers.map((a) => a.status).sort();
    // A window of a second may hold the start of the next: at most 4 of 6 pass, at least 2 are refused.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const refused = answers.find((a) => a.status === 429)!;
    expect(envelopeOf(refused)).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Only the documents let through were looked up; each refusal waited REFUSAL_DELAY_MS.min at least.
    expect(lookups.length).toBe(statuses.filter((s) => s === 200).length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(REFUSAL_DELAY_MS.min);
  });

  it('an answer past ANALYST_MAX_ANSWER_BYTES is refused with 400, naming the query', async () => {
    const url = await gatewayWith({ ANALYST_MAX_ANSWER_BYTES: '65536' });
    const key = await token();
    const large = await query(url, { key }, FULL_INTROSPECTION);
    expect(large.status).toBe(400);
    expect(envelopeOf(large)).toMatchObject({ code: 'invalid_request', param: 'query', message: expect.stringMatching(/^The answer is \d+ bytes, above the limit of 65536/) });
    expect((await query(url, { key }, '{ workspace { id } }')).status).toBe(200);
  });
});

/** The document with its `__schema { … }` selected twice, under two aliases. */
function aliasedTwice(document: string): string {
  const start = document.indexOf('__schema {');
  let depth = 0;
  let end = document.indexOf('{', start);
  for (; end < document.length; end += 1) {
    if (document[end] === '{') depth += 1;
    if (document[end] === '}' && --depth === 0) break;
  }
  const block = document.slice(start, end + 1);
  return `${document.slice(0, start)}a: ${block} b: ${block}${document.slice(end + 1)}`;
}
