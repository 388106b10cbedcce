import { loadOperations } from '../../contract/operations';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from '../../contract/principal';
import { INTERNAL_SECRET, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

/** The core sits on a private network, but still trusts nothing it cannot verify. */
describe('the core GraphQL endpoint', () => {
  let stack: Stack;
  let principal: Extract<Principal, { kind: 'api_key' }>;
  const operations = loadOperations();
  const searchHash = operations.get('SearchMarkets')!.hash;

  beforeAll(async () => {
    stack = await startStack(testConfig(), 'split', 1);
    const { key } = await buildWorkspace(stack.core.db);
    principal = { kind: 'api_key', keyId: key.id, workspaceId: key.workspaceId, environment: 'test' };
  });
  afterAll(() => stack.close());

  async function post(body: unknown, header?: string) {
    const response = await fetch(`${stack.coreUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header ? { [PRINCIPAL_HEADER]: header } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
  }
  const persisted = (hash: string, variables = {}) => ({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

  it('runs a persisted operation for a correctly signed principal', async () => {
    const response = await post(persisted(searchHash, { limit: 1 }), signPrincipal(principal, INTERNAL_SECRET));
    expect(response.status).toBe(200);
    expect(response.body.data.markets.data).toHaveLength(1);
  });

  it('refuses a request without a principal', async () => {
    const response = await post(persisted(searchHash));
    expect(response.status).toBe(401);
    expect(response.body.errors![0].extensions.code).toBe('unauthorized');
    expect(response.body.data).toBeUndefined();
  });

  it('refuses a principal signed with another secret, or altered after signing', async () => {
    const forged = await post(persisted(searchHash), signPrincipal(principal, 'not-the-internal-secret-at-all-0000'));
    expect(forged.status).toBe(401);
    const [payload, signature] = signPrincipal(principal, INTERNAL_SECRET).split('.');
    const other = Buffer.from(JSON.stringify({ ...principal, workspaceId: 'ws_someone_else', iat: Date.now() })).toString('base64url');
    expect(payload).not.toBe(other);
    const altered = await post(persisted(searchHash), `${other}.${signature}`);
    expect(altered.status).toBe(401);
  });

  it('refuses operation text that is not a persisted operation, and unknown hashes', async () => {
    const header = signPrincipal(principal, INTERNAL_SECRET);
    const arbitrary = await post({ query: '{ markets { data { id } } }' }, header);
    expect(arbitrary.body.errors![0].extensions.code).toBe('forbidden');
    expect(arbitrary.body.data).toBeUndefined();
    const unknown = await post(persisted('0'.repeat(64)), header);
    expect(unknown.body.errors![0].extensions.code).toBe('not_found');
  });

  it('refuses a webhook endpoint’s principal, even correctly signed: it is the core’s own, never a request’s', async () => {
    const header = signPrincipal({ kind: 'webhook', workspaceId: principal.workspaceId, endpointId: 'whe_x', environment: 'test' }, INTERNAL_SECRET);
    const response = await post(persisted(searchHash, { limit: 1 }), header);
    expect(response.status).toBe(401);
    expect(response.body.errors![0].extensions.code).toBe('unauthorized');
  });

  it('lets the gateway principal run only the internal operations', async () => {
    const header = signPrincipal({ kind: 'gateway' }, INTERNAL_SECRET);
    const response = await post(persisted(searchHash), header);
    expect(response.body.errors![0].extensions.code).toBe('forbidden');
  });

  it('masks unexpected errors: no stack, no SQL, no internals in the answer', async () => {
    // An environment the database does not know makes PostgreSQL fail the query itself.
    const odd = { kind: 'api_key', keyId: 'key_x', workspaceId: 'ws_x', environment: 'staging' } as unknown as Principal;
    const response = await post(persisted(searchHash, { q: 'fed' }), signPrincipal(odd, INTERNAL_SECRET));
    expect(response.body.errors![0]).toMatchObject({ message: 'Internal error.', extensions: { code: 'internal_error' } });
    expect(JSON.stringify(response.body)).not.toMatch(/staging|Environment|SELECT|prisma|\.ts:|at \w+ \(/i);
  });

  it("another workspace's ids are simply not found", async () => {
    const header = signPrincipal({ ...principal, workspaceId: 'ws_01abcdefghjkmnpqrstvwxyz00' } as Principal, INTERNAL_SECRET);
    const response = await post(persisted(operations.get('GetWorkspace')!.hash), header);
    expect(response.body.errors![0].extensions.code).toBe('not_found');
  });

  describe('every endpoint of the core refuses a request without a valid signed principal', () => {
    const analyst = (): Principal => ({ kind: 'analyst', workspaceId: principal.workspaceId, credentialId: 'tok_x', environment: 'test', access: 'full' });
    const document = JSON.stringify({ query: '{ workspace { id } }' });
    const endpoints: [string, 'GET' | 'POST', string, string | undefined][] = [
      ['persisted operations', 'POST', '/graphql', JSON.stringify(persisted(searchHash, { limit: 1 }))],
      ['persisted operations over GET', 'GET', `/graphql?query=${encodeURIComponent('{ workspace { id } }')}`, undefined],
      ['analysts’ GraphQL', 'POST', '/analyst/graphql', document],
      ['analysts’ GraphQL over GET', 'GET', `/analyst/graphql?query=${encodeURIComponent('{ workspace { id } }')}`, undefined],
      ['a page view of the analysts’ GraphQL', 'GET', '/analyst/graphql', undefined],
      ['the health check', 'GET', '/health', undefined],
      ['an unknown path', 'GET', '/nothing-here', undefined],
    ];
    const headers: [string, () => string | undefined][] = [
      ['no principal', () => undefined],
      ['signed with another secret', () => signPrincipal(analyst(), 'not-the-internal-secret-at-all-0000')],
      ['altered after signing', () => {
        const [, signature] = signPrincipal(analyst(), INTERNAL_SECRET).split('.');
        const other = Buffer.from(JSON.stringify({ ...analyst(), workspaceId: 'ws_someone_else', iat: Date.now() })).toString('base64url');
        return `${other}.${signature}`;
      }],
      ['stale (signed two minutes ago)', () => signPrincipal(analyst(), INTERNAL_SECRET, Date.now() - 120_000)],
      ['malformed', () => 'not.a.principal'],
    ];
    const cases = endpoints.flatMap(([name, method, path, body]) => headers.map(([why, header]) => [name, why, method, path, body, header] as const));

    it.each(cases)('%s: %s is 401', async (_name, _why, method, path, body, header) => {
      const value = header();
      const response = await fetch(`${stack.coreUrl}${path}`, {
        method,
        body,
        headers: { accept: 'text/html, application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...(value ? { [PRINCIPAL_HEADER]: value } : {}) },
      });
      expect(response.status).toBe(401);
      const answer = (await response.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
      expect(answer.errors[0].extensions.code).toBe('unauthorized');
      expect(answer.data).toBeUndefined();
    });

    it('the analysts’ GraphQL runs a document for a signed analyst principal, and only for one', async () => {
      const post = (header: string) =>
        fetch(`${stack.coreUrl}/analyst/graphql`, { method: 'POST', body: document, headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: header } });
      const answered = await post(signPrincipal(analyst(), INTERNAL_SECRET));
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { data: { workspace: { id: string } } }).data.workspace.id).toBe(principal.workspaceId);
      for (const other of [principal, { kind: 'gateway' } as Principal]) {
        const refused = await post(signPrincipal(other, INTERNAL_SECRET));
        expect(refused.status).toBe(403);
        expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('forbidden');
      }
    });
  });

  /**
   * Defence in depth: the gateway refuses these at the edge, and the core refuses them again for
   * any caller, before a parser or a statement sees them (docs/api-conventions.md, "Input limits").
   */
  describe('refuses, as invalid_request, what would overflow the parser or what PostgreSQL cannot store', () => {
    const analyst = (): Principal => ({ kind: 'analyst', workspaceId: principal.workspaceId, credentialId: 'tok_x', environment: 'test', access: 'full' });
    async function analystPost(body: unknown) {
      const response = await fetch(`${stack.coreUrl}/analyst/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PRINCIPAL_HEADER]: signPrincipal(analyst(), INTERNAL_SECRET) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { data?: any; errors?: { message: string; extensions: { code: string; param?: string } }[] } };
    }
    const refusal = (answer: { status: number; body: { errors?: { message: string; extensions: { code: string; param?: string } }[] } }) => ({
      status: answer.status, code: answer.body.errors?.[0].extensions.code, param: answer.body.errors?.[0].extensions.param,
    });
    const deep = `{ workspace ${'{ id '.repeat(3000)}${'}'.repeat(3000)} }`;

    it('a document nested 3,000 levels deep, on both endpoints', async () => {
      expect(refusal(await analystPost({ query: deep }))).toEqual({ status: 400, code: 'invalid_request', param: 'query' });
      expect(refusal(await post({ query: deep }, signPrincipal(principal, INTERNAL_SECRET)))).toEqual({ status: 400, code: 'invalid_request', param: 'query' });
    });

    it('a NUL character in a variable of a persisted operation, or in an analyst’s literal or variable', async () => {
      const persistedAnswer = await post(persisted(operations.get('GetOrder')!.hash, { id: 'ord_\u0000' }), signPrincipal(principal, INTERNAL_SECRET));
      expect(refusal(persistedAnswer)).toEqual({ status: 400, code: 'invalid_request', param: 'id' });
      expect(refusal(await analystPost({ query: '{ order(id: "ord_\\u0000") { id } }' }))).toEqual({ status: 400, code: 'invalid_request', param: 'query' });
      const variable = await analystPost({ query: 'query($q: String) { markets(q: $q) { data { id } } }', variables: { q: 'fed\ud800' } });
      expect(refusal(variable)).toEqual({ status: 400, code: 'invalid_request', param: 'q' });
    });

    // A variable a scalar refuses is invalid_request; a literal it refuses fails validation, with
    // GraphQL's own code (docs/analyst-graphql.md). Neither is an internal error any more.
    it.each([
      ['an Int variable beyond 32 bits', 'mutation($n: Int) { updateRiskLimits(subaccountId: "sa_x", input: { maxOpenOrders: $n }) { maxOpenOrders } }', { n: 2 ** 31 }, 'invalid_request'],
      ['a DateTime variable of year 0000', 'query($since: DateTime) { orders(since: $since) { data { id } } }', { since: '0000-01-01T00:00:00Z' }, 'invalid_request'],
      ['a DateTime literal of year 10000 in UTC', '{ orders(since: "9999-12-31T23:30:00-01:00") { data { id } } }', {}, 'GRAPHQL_VALIDATION_FAILED'],
      ['a P&L date of year 0000', '{ pnlHistory(from: "0000-12-31", to: "0001-01-02") { data { date } } }', {}, 'invalid_request'],
    ])('%s', async (_name, query, variables, code) => {
      const answer = await analystPost({ query, variables });
      expect(answer.body.errors?.[0].extensions.code).toBe(code);
      expect(answer.body.errors?.[0].message).toMatch(/0001|32-bit/);
    });

    it('a P&L history ending early in year 0001 starts its default range on 0001-01-01, not in year 0000', async () => {
      const answer = await analystPost({ query: '{ pnlHistory(to: "0001-01-05") { data { date } } }' });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.pnlHistory.data.map((d: { date: string }) => d.date)).toEqual(['0001-01-01', '0001-01-02', '0001-01-03', '0001-01-04', '0001-01-05']);
    });
  });
});
