import { loadOperations } from '../../contract/operations';
import { PRINCIPAL_HEADER, signPrincipal, type Principal } from '../../contract/principal';
import { INTERNAL_SECRET, testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { startStack, type Stack } from '../support/stack';

/** The core sits on a private network, but still trusts nothing it cannot verify. */
describe('the core GraphQL endpoint', () => {
  let stack: Stack;
  let principal: Principal;
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
});
