/**
 * One error catalogue (contract/errors.ts): the OpenAPI document, the gateway's envelope and the
 * core's DomainError and masking all answer each code with the catalogue's status; every code the
 * core raises reaches a REST client with that status, and the gateway's own codes are no core codes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ERROR_CATALOGUE, isCoreErrorCode, statusOf, type CoreErrorCode, type ErrorCode } from '../../contract/errors';
import { DomainError } from '../../core/domain/errors';
import { maskError } from '../../core/graphql/errorMasking';
import { createLogger } from '../../core/support/logger';
import { CoreClient, type CoreTransport } from '../../gateway/coreClient';
import { ApiError } from '../../gateway/errors';
import { errorEnvelope } from '../../gateway/middleware/errorEnvelope';
import { requestId } from '../../gateway/middleware/requestId';
import { buildOpenApi } from '../../gateway/openapi';
import { ROUTES } from '../../gateway/routes';
import { loadOperations } from '../../contract/operations';
import { testConfig } from '../support/env';
import { call, envelopeOf, type ApiResponse } from '../support/http';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, marketOf, newTrader, placed, placeOrder, type Market, type Trader } from '../trading/helpers';

const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
const CORE_CODES = CODES.filter(isCoreErrorCode);
const GATEWAY_ONLY: ErrorCode[] = ['upstream_unavailable', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'method_not_allowed'];
const logger = createLogger('silent', 'test');

/** Every `code` the OpenAPI document lists under an error response, with that response's status. */
function documentedStatuses(document: Record<string, any>): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  for (const methods of Object.values(document.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, { description: string }>)) {
        for (const [, code] of response.description.matchAll(/`([a-z_]+)`:/g)) {
          found.set(code, (found.get(code) ?? new Set()).add(Number(status)));
        }
      }
    }
  }
  return found;
}

/** What a client gets from a gateway that knows only its envelope, when the request fails with `failing`. */
async function answerOf(failing: () => Promise<unknown>): Promise<ApiResponse> {
  const app = new Koa();
  app.use(requestId());
  app.use(errorEnvelope(logger));
  app.use(async () => {
    await failing();
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await call(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'GET', '/anything');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A core transport that answers every request with the core's masking of `error`, as the wire carries it. */
function coreAnswering(error: unknown): CoreTransport {
  const masked = maskError(logger)(error);
  return {
    send: async () => ({ status: 200, contentType: 'application/json', text: JSON.stringify({ data: null, errors: [masked.toJSON()] }) }),
    stream: () => Promise.reject(new Error('no streams here')),
    close: async () => undefined,
  };
}

describe('the catalogue, the OpenAPI document, the gateway and the core agree', () => {
  const document = buildOpenApi(ROUTES) as Record<string, any>;

  it('the OpenAPI error schema lists exactly the catalogue’s codes', () => {
    expect(document.components.schemas.Error.properties.error.properties.code.enum).toEqual(CODES);
  });

  it('every code the OpenAPI document lists under a response is listed under the catalogue’s status only', () => {
    const documented = documentedStatuses(document);
    expect(documented.size).toBeGreaterThan(10);
    for (const [code, statuses] of documented) {
      expect([code, [...statuses]]).toEqual([code, [statusOf(code as ErrorCode)]]);
    }
  });

  it.each(CODES)('%s: the gateway envelope answers the catalogue’s status', async (code) => {
    const response = await answerOf(async () => {
      throw new ApiError(code, 'refused');
    });
    expect(response.status).toBe(statusOf(code));
    expect(envelopeOf(response)).toMatchObject({ code, message: 'refused' });
  });

  it.each(CORE_CODES)('%s raised in the core: DomainError, masking, the wire and the envelope all give the catalogue’s status', async (code) => {
    const raised = new DomainError(code, 'refused by the core', 'timeInForce');
    expect(raised.status).toBe(statusOf(code));
    const masked = maskError(logger)(raised);
    expect(masked.extensions).toMatchObject({ code, http: { status: statusOf(code) } });

    const client = new CoreClient(coreAnswering(raised), loadOperations(), 'secret', 1000);
    const response = await answerOf(() => client.execute('GetWorkspace', {}, { kind: 'gateway' }));
    expect(response.status).toBe(statusOf(code));
    expect(envelopeOf(response)).toMatchObject({ code, message: 'refused by the core' });
  });

  it('the gateway’s own codes are no core codes: a core that sends one is answered as internal_error', async () => {
    expect(GATEWAY_ONLY.filter(isCoreErrorCode)).toEqual([]);
    expect(CODES.filter((code) => !isCoreErrorCode(code)).sort()).toEqual([...GATEWAY_ONLY].sort());
    // @ts-expect-error: a gateway code is no code of the core's (tsc fails here if it becomes one)
    const gatewayCode: CoreErrorCode = 'upstream_unavailable';
    expect(isCoreErrorCode(gatewayCode)).toBe(false);
    const client = new CoreClient(
      { send: async () => ({ status: 200, contentType: 'application/json', text: JSON.stringify({ errors: [{ message: 'x', extensions: { code: 'upstream_unavailable' } }] }) }), stream: () => Promise.reject(new Error('no streams here')), close: async () => undefined },
      loadOperations(),
      'secret',
      1000,
    );
    await expect(client.execute('GetWorkspace', {}, { kind: 'gateway' })).rejects.toMatchObject({ code: 'internal_error', status: 500 });
  });

  it('a code the core masks (an unexpected error) is internal_error at the catalogue’s 500', () => {
    const masked = maskError(logger)(new Error('boom: SELECT * FROM secrets'));
    expect(masked.message).toBe('Internal error.');
    expect(masked.extensions).toEqual({ code: 'internal_error', http: { status: statusOf('internal_error') } });
  });
});

describe('core errors reach a REST client with the catalogue’s status (gateway + core)', () => {
  let stack: Stack;
  let trader: Trader;
  let subaccount: string;
  let market: Market;

  beforeAll(async () => {
    stack = await startStack(testConfig());
    trader = await newTrader(stack.core.db, stack.gateways[0], 'Error catalogue');
    subaccount = await createSubaccount(trader, 'catalogue', '1000');
    market = await marketOf(stack.core.db, 'sim_kalshi', 'TEMP-RECORD-YR');
  });
  afterAll(() => stack.close());

  const order = (fields: Record<string, unknown> = {}) => ({
    subaccount_id: subaccount, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.30', quantity: '1', ...fields,
  });
  const expectCatalogued = (response: { status: number; body: any; headers: Headers }, code: CoreErrorCode) => {
    expect([response.status, envelopeOf(response).code]).toEqual([statusOf(code), code]);
    return envelopeOf(response);
  };

  it('not_found', async () => {
    expectCatalogued(await call(trader.base, 'GET', '/v1/orders/ord_01nosuchorder0000000000000', { key: trader.secret }), 'not_found');
  });

  it('invalid_request: the core names timeInForce, the client reads time_in_force in param and message', async () => {
    const error = expectCatalogued(await placeOrder(trader, order({ type: 'market', price: undefined, time_in_force: 'gtc' })), 'invalid_request');
    expect(error).toMatchObject({ param: 'time_in_force', message: 'A market order never rests: time_in_force is ioc or fok.' });
  });

  it('invalid_request on a risk limit: param and message name max_order_notional', async () => {
    const response = await call(trader.base, 'PUT', `/v1/risk_limits/${subaccount}`, { key: trader.secret, body: { max_order_notional: '-1' } });
    expect(expectCatalogued(response, 'invalid_request')).toMatchObject({ param: 'max_order_notional', message: 'max_order_notional: must be at least 0' });
  });

  it('insufficient_funds', async () => {
    expectCatalogued(await placeOrder(trader, order({ quantity: '5000' })), 'insufficient_funds');
  });

  it('conflict, then idempotency_key_reused', async () => {
    const resting = await placed(trader, order() as never);
    expect((await call(trader.base, 'DELETE', `/v1/orders/${resting.id}`, { key: trader.secret })).status).toBe(200);
    expectCatalogued(await call(trader.base, 'DELETE', `/v1/orders/${resting.id}`, { key: trader.secret }), 'conflict');

    const key = { 'Idempotency-Key': `catalogue-${Date.now()}` };
    expect((await placeOrder(trader, order(), key)).status).toBe(200);
    expectCatalogued(await placeOrder(trader, order({ quantity: '2' }), key), 'idempotency_key_reused');
  });

  it('risk_limit_exceeded keeps its limit', async () => {
    const halted = await newTrader(stack.core.db, stack.gateways[0], 'Error catalogue halted');
    const own = await createSubaccount(halted, 'halted', '1000');
    expect((await call(halted.base, 'PUT', '/v1/risk/kill_switch', { key: halted.secret, body: { enabled: true } })).status).toBe(200);
    const response = await placeOrder(halted, order({ subaccount_id: own }));
    expect(expectCatalogued(response, 'risk_limit_exceeded')).toMatchObject({ limit: 'kill_switch' });
  });
});
