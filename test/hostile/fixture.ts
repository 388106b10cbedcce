/**
 * What the hostile corpus acts with and how it is sent, shared by the suites that send it
 * (hostileInput.test.ts; test/contract/generatedClient.test.ts checks each answer's status
 * against the OpenAPI document).
 */
import http from 'node:http';
import { createDashboardToken } from '../../core/services/accounts/apiKeys';
import { createUser } from '../../core/services/accounts/users';
import { signIn } from '../support/dashboardSession';
import { buildApiKey, buildWorkspace } from '../support/factories';
import { call } from '../support/http';
import type { Stack } from '../support/stack';
import type { Fixture, HostileRequest } from './corpus';

export const PASSWORD = 'correct horse battery staple';

/**
 * A workspace with everything the routes act on: a test key (its own limit at the maximum), full
 * and read-only dashboard tokens, a signed-in user, two subaccounts, a resting order, a filled one,
 * a complex order; and another workspace's subaccount, order, complex order and key.
 */
export async function buildFixture(stack: Stack, base: string, label: string): Promise<Fixture> {
  const db = stack.core.db;
  const own = await buildWorkspace(db, { rateLimit: 100_000, name: `hostile ${label}` });
  const other = await buildWorkspace(db, { rateLimit: 100_000, name: `hostile ${label} (other)` });
  const readOnly = await createDashboardToken(db, own.workspace.id, 'read_only');
  const spareKey = await buildApiKey(db, own.workspace.id, 'test');
  const email = `hostile-${label}-${Date.now()}@example.com`;
  await createUser(db, { workspaceId: own.workspace.id, email, password: PASSWORD });
  const session = await signIn(base, email, PASSWORD);
  const markets = await db.market.findMany({ where: { environment: 'test', status: 'open' }, orderBy: { id: 'asc' }, take: 2 });
  const ok = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await call(base, method, path, { key, body });
    if (response.status !== 200) throw new Error(`fixture: ${method} ${path} answered ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as { id: string };
  };
  const tradeIn = async (key: string) => {
    const subaccount = (await ok(key, 'POST', '/v1/subaccounts', { name: 'main', starting_balance: '100000' })).id;
    const order = (await ok(key, 'POST', '/v1/orders', { subaccount_id: subaccount, market_id: markets[0].id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '2' })).id;
    await ok(key, 'POST', '/v1/orders', { subaccount_id: subaccount, market_id: markets[0].id, side: 'yes', action: 'buy', type: 'market', quantity: '1' });
    const complexOrder = (await ok(key, 'POST', '/v1/complex_orders', { subaccount_id: subaccount, market_id: markets[0].id, side: 'yes', action: 'buy', quantity: '1', strategy: 'passive', limit_price: '0.01' })).id;
    return { subaccount, order, complexOrder };
  };
  const mine = await tradeIn(own.secret);
  const theirs = await tradeIn(other.secret);
  const spareSubaccount = (await ok(own.secret, 'POST', '/v1/subaccounts', { name: 'spare' })).id;
  return {
    apiKey: own.secret,
    dashboardToken: own.dashboardSecret,
    readOnlyDashboardToken: readOnly.secret,
    session: { cookie: session.cookie, csrf: session.csrf },
    userEmail: email,
    ids: { ...mine, spareSubaccount, market: markets[0].id, otherMarket: markets[1].id, spareApiKey: spareKey.key.id },
    foreign: { subaccount: theirs.subaccount, order: theirs.order, complexOrder: theirs.complexOrder, apiKey: other.key.id },
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function send(agent: http.Agent, target: URL, request: HostileRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const outgoing = http.request(
      {
        agent, host: target.hostname, port: target.port, method: request.method, path: request.path,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        if (String(response.headers['content-type']).startsWith('text/event-stream')) {
          // An event stream never ends by itself: its answer is its head and its first lines.
          const answered = (text: string) => {
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
            response.destroy();
          };
          response.once('data', (chunk: Buffer) => answered(chunk.toString('utf8')));
          response.once('end', () => answered('')); // HEAD: the head alone
          response.on('error', () => undefined);
          return;
        }
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

