/**
 * The analysts' GraphQL is an edge of the gateway like every REST route: request-level failures in
 * the error envelope (401, 400 for X-Environment, for a document nested too deep or a NUL character,
 * 413, 415, invalid JSON, 429 past the credential's
 * rate limit, 502 without a core), the request id in the envelope and in every GraphQL error, one
 * access-log line per request, GraphQL over GET as over POST.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Config } from '../../core/config';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { createUser } from '../../core/services/accounts/users';
import { inProcessTransport, type CoreTransport } from '../../gateway/coreClient';
import { signIn } from '../support/dashboardSession';
import { testConfig } from '../support/env';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import { OwnGateways } from '../support/ownGateways';
import { startStack, type Stack } from '../support/stack';

const PATH = '/analyst/graphql';
const RATE_LIMIT = 3;

let config: Config;
let stack: Stack;
let base: string;
let workspaceId: string;
const own = new OwnGateways(() => stack);

/** A gateway of its own on loopback: another transport to the core, or another logger. */
const gatewayWith = (transport: CoreTransport, logger = pino({ level: 'silent' })) => own.start(config, { transport, logger });

const token = async (access: 'full' | 'read_only' = 'read_only') => (await createDashboardToken(stack.core.db, workspaceId, access)).secret;
const query = (key: string | undefined, document: string, options: { headers?: Record<string, string>; url?: string } = {}) =>
  call(options.url ?? base, 'POST', PATH, { key, body: { query: document }, headers: options.headers });

function expectRequestId(response: ApiResponse, error: { extensions?: { request_id?: string } }) {
  expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  expect(error.extensions?.request_id).toBe(response.headers.get('x-request-id'));
}

beforeAll(async () => {
  config = testConfig({ RATE_LIMIT_DEFAULT: String(RATE_LIMIT) });
  stack = await startStack(config);
  base = stack.gateways[0];
  workspaceId = (await buildWorkspace(stack.core.db, { name: 'Analyst edge' })).workspace.id;
});
afterAll(async () => {
  await own.closeAll();
  await stack?.close();
});

describe('request-level failures answer the error envelope', () => {
  it('401 without a credential, with an unknown token, with an API key, with an ended session', async () => {
    const none = await query(undefined, '{ workspace { id } }');
    expect(none.status).toBe(401);
    expect(envelopeOf(none).code).toBe('unauthorized');
    const unknown = await query('mk_dash_' + 'x'.repeat(40), '{ workspace { id } }');
    expect(unknown.status).toBe(401);
    expect(envelopeOf(unknown).code).toBe('unauthorized');
    const { secret: apiKey } = await buildApiKey(stack.core.db, workspaceId, 'test');
    const wrongKind = await query(apiKey, '{ workspace { id } }');
    expect(wrongKind.status).toBe(401);
    expect(envelopeOf(wrongKind).code).toBe('unauthorized');
    const ended = await query(undefined, '{ workspace { id } }', { headers: { cookie: 'mk_session=not-a-live-session' } });
    expect(ended.status).toBe(401);
    expect(envelopeOf(ended).code).toBe('unauthorized');
  });

  it('400 invalid_request naming X-Environment for an environment that is neither test nor live', async () => {
    const response = await query(await token(), '{ workspace { id } }', { headers: { 'x-environment': 'staging' } });
    expect(response.status).toBe(400);
    expect(envelopeOf(response)).toMatchObject({ code: 'invalid_request', param: 'X-Environment' });
  });

  it('415 for a body that is not JSON, 400 invalid_json for broken JSON, 413 for a body past the limit', async () => {
    const key = await token();
    const plain = await call(base, 'POST', PATH, { key, rawBody: '{ workspace { id } }', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(envelopeOf(plain).code).toBe('unsupported_media_type');
    const broken = await call(base, 'POST', PATH, { key, rawBody: '{"query": ', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(envelopeOf(broken).code).toBe('invalid_json');
    const large = await call(base, 'POST', PATH, { key, body: { query: `{ workspace { id } } # ${'x'.repeat(70_000)}` } });
    expect(large.status).toBe(413);
    expect(envelopeOf(large).code).toBe('payload_too_large');
  });

  it('400 invalid_request for a document nested past the limit (refused before parsing) or a NUL character anywhere, over POST and GET', async () => {
    const deep = `{ workspace ${'{ id '.repeat(3000)}${'}'.repeat(3000)} }`;
    const posted = await query(await token(), deep);
    expect(posted.status).toBe(400);
    expect(envelopeOf(posted)).toMatchObject({ code: 'invalid_request', param: 'query', message: expect.stringMatching(/more than 64 levels deep/) });
    const viaGet = await call(base, 'GET', `${PATH}?query=${encodeURIComponent(`{ workspace ${'{ id '.repeat(100)}${'}'.repeat(100)} }`)}`, { key: await token() });
    expect(viaGet.status).toBe(400);
    expect(envelopeOf(viaGet)).toMatchObject({ code: 'invalid_request', param: 'query' });
    const key = await token();
    const literal = await query(key, '{ markets(q: "fed\\u0000") { data { id } } }');
    expect(envelopeOf(literal)).toMatchObject({ code: 'invalid_request', param: 'query' });
    const variable = await call(base, 'POST', PATH, { key, body: { query: 'query($q: String) { markets(q: $q) { data { id } } }', variables: { q: 'fed\u0000' } } });
    expect(variable.status).toBe(400);
    expect(envelopeOf(variable)).toMatchObject({ code: 'invalid_request', param: 'variables.q' });
  });

  it('429 rate_limited with Retry-After past the credential’s limit, per token and per session', async () => {
    const key = await token();
    const responses = await Promise.all(Array.from({ length: RATE_LIMIT * 3 }, () => query(key, '{ workspace { id } }')));
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(envelopeOf(limited[0]).code).toBe('rate_limited');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(responses.filter((r) => r.status === 200).length).toBeLessThanOrEqual(RATE_LIMIT * 2); // at most two windows' worth

    const email = `edge-${Date.now()}@example.com`;
    await createUser(stack.core.db, { workspaceId, email, password: 'a long enough password' });
    const page = await signIn(base, email, 'a long enough password');
    const bySession = await Promise.all(
      Array.from({ length: RATE_LIMIT * 3 }, () => query(undefined, '{ workspace { id } }', { headers: { cookie: page.cookie } })),
    );
    const sessionLimited = bySession.filter((r) => r.status === 429);
    expect(sessionLimited.length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(envelopeOf(sessionLimited[0]).code).toBe('rate_limited');
  });

  it('502 upstream_unavailable when the core does not answer', async () => {
    const down: CoreTransport = { send: () => Promise.reject(new Error('connection refused')), stream: () => Promise.reject(new Error('connection refused')), close: async () => undefined };
    const response = await query('mk_dash_' + 'x'.repeat(40), '{ workspace { id } }', { url: await gatewayWith(down) });
    expect(response.status).toBe(502);
    expect(envelopeOf(response).code).toBe('upstream_unavailable');
  });

  it('405 method_not_allowed for a method GraphQL does not use', async () => {
    const response = await call(base, 'DELETE', PATH, { key: await token() });
    expect(response.status).toBe(405);
    expect(envelopeOf(response).code).toBe('method_not_allowed');
  });
});

describe('errors inside an executed request are GraphQL errors', () => {
  it('a field error: errors[] with its path, extensions.code and the request id; the status of the code', async () => {
    const response = await query(await token(), '{ workspace { id } order(id: "ord_01abcdefghjkmnpqrstvwxyz0") { id } }');
    expect(response.status).toBe(404);
    expect(response.body.data).toBeNull(); // order is non-null: its error nulls the whole answer, as GraphQL says
    expect(response.body.errors[0]).toMatchObject({ path: ['order'], extensions: { code: 'not_found' } });
    expectRequestId(response, response.body.errors[0]);
    expect(response.body.error).toBeUndefined();
  });

  it('a document that does not parse or validate: no data, errors[] with GraphQL’s own code and the request id', async () => {
    const invalid = await query(await token(), '{ workspace { noSuchField } }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.data).toBeUndefined();
    expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expectRequestId(invalid, invalid.body.errors[0]);
    const unparsable = await query(await token(), '{ workspace { id }');
    expect(unparsable.status).toBe(400);
    expect(unparsable.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expectRequestId(unparsable, unparsable.body.errors[0]);
  });

  it('a document over a limit: 400 invalid_request naming the limit, and the request id', async () => {
    const deep = await query(await token(), '{ subaccounts { data { orders { complexOrder { orders { complexOrder { orders { complexOrder { orders { id } } } } } } } } } }');
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', param: 'depth' });
    expectRequestId(deep, deep.body.errors[0]);
  });

  it('a read-only credential’s mutation: 403 with errors[] forbidden and the request id', async () => {
    const response = await query(await token('read_only'), 'mutation { setKillSwitch(enabled: true) { id } }');
    expect(response.status).toBe(403);
    expect(response.body.errors[0].extensions.code).toBe('forbidden');
    expectRequestId(response, response.body.errors[0]);
  });
});

describe('GraphQL over GET, and the access log', () => {
  it('answers a query over GET and refuses a mutation over GET, whatever the access', async () => {
    const key = await token('full');
    const read = await call(base, 'GET', `${PATH}?query=${encodeURIComponent('{ workspace { id } }')}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data.workspace.id).toBe(workspaceId);
    const write = await call(base, 'GET', `${PATH}?query=${encodeURIComponent('mutation { setKillSwitch(enabled: true) { id } }')}`, { key });
    expect(write.status).toBe(405);
    expect(write.body.errors[0].message).toMatch(/POST/);
    expect((await stack.core.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } })).tradingHalted).toBe(false);
  });

  it('writes one access-log line per request, with the credential’s id and never its secret', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    const logged = await gatewayWith(inProcessTransport(stack.core), pino({ level: 'info' }, sink));
    const { token: created, secret } = await createDashboardToken(stack.core.db, workspaceId, 'read_only');
    const response = await query(secret, '{ workspace { id } }', { url: logged });
    expect(response.status).toBe(200);
    const line = lines.find((l) => l.msg === 'request' && l.path === PATH);
    expect(line).toMatchObject({ method: 'POST', status: 200, credential: created.id, requestId: response.headers.get('x-request-id') });
    expect(JSON.stringify(lines)).not.toContain(secret);
  });
});
