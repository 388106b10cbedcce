/**
 * A client's whole trading flow, written against the TypeScript types that openapi-typescript
 * generates from the OpenAPI document the gateway serves, with openapi-fetch. The test
 * (generatedClient.test.ts) generates `./openapi.d.ts` from a running gateway into a directory of
 * its own, type-checks this file against it (strict), then runs it: a field the document gets
 * wrong fails one or the other. Not part of the project's own type-check (tsconfig.json excludes
 * this directory): its types exist only once generated.
 *
 * Run as `node --import tsx flow.ts <gateway base URL> <API key>`; prints the report as JSON.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi';

type Order = components['schemas']['Order'];
type ApiError = components['schemas']['Error'];

/** What the flow saw, for the test to check. */
export interface FlowReport {
  subaccount: components['schemas']['Subaccount'];
  marketCount: number;
  resting: Order;
  read: Order;
  canceled: Order;
  replayed: string | null;
  filled: Order;
  fills: components['schemas']['Fill'][];
  positions: components['schemas']['Position'][];
  unknownOrder: { status: number; error: ApiError; requestIdHeader: string | null };
  unknownFilter: { status: number; error: ApiError };
}

export async function runFlow(baseUrl: string, apiKey: string): Promise<FlowReport> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const ok = <T>(result: { data?: T; error?: unknown; response: Response }, what: string): T => {
    if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
    return result.data;
  };

  const subaccount = ok(await client.POST('/v1/subaccounts', { body: { name: 'generated client', starting_balance: '1000' } }), 'create subaccount');

  const markets = ok(await client.GET('/v1/markets', { params: { query: { venue: 'sim-kalshi', status: 'open', limit: 20 } } }), 'list markets');
  const market = markets.data.find((candidate) => candidate.status === 'open');
  if (!market) throw new Error('no open market');

  const restingKey = `generated-client-${subaccount.id}`;
  const place = () =>
    client.POST('/v1/orders', {
      params: { header: { 'Idempotency-Key': restingKey } },
      body: { subaccount_id: subaccount.id, market_id: market.id, side: 'yes', action: 'buy', type: 'limit', price: '0.01', quantity: '3' },
    });
  const resting = ok(await place(), 'place a resting order');
  const again = await place();
  const replayed = again.response.headers.get('Idempotent-Replayed');

  const read = ok(await client.GET('/v1/orders/{id}', { params: { path: { id: resting.id } } }), 'read the order');
  const canceled = ok(await client.DELETE('/v1/orders/{id}', { params: { path: { id: resting.id } } }), 'cancel the order');

  const filled = ok(
    await client.POST('/v1/orders', {
      body: { subaccount_id: subaccount.id, market_id: market.id, side: 'yes', action: 'buy', type: 'market', quantity: '2' },
    }),
    'place a market order',
  );
  const fills = ok(await client.GET('/v1/fills', { params: { query: { order_id: filled.id } } }), 'list fills').data;
  const positions = ok(await client.GET('/v1/positions', { params: { query: { subaccount_id: subaccount.id } } }), 'list positions').data;

  const missing = await client.GET('/v1/orders/{id}', { params: { path: { id: 'ord_does_not_exist' } } });
  if (!missing.error) throw new Error('an unknown order was found');
  const unknownOrder = { status: missing.response.status, error: missing.error, requestIdHeader: missing.response.headers.get('X-Request-Id') };

  const filtered = await client.GET('/v1/orders', { params: { query: { subaccount_id: 'sa_does_not_exist' } } });
  if (!filtered.error) throw new Error('an unknown subaccount filter answered a page');
  const unknownFilter = { status: filtered.response.status, error: filtered.error };

  return { subaccount, marketCount: markets.data.length, resting, read, canceled, replayed, filled, fills, positions, unknownOrder, unknownFilter };
}

if (process.argv[2] && process.argv[3]) {
  runFlow(process.argv[2], process.argv[3]).then(
    (report) => process.stdout.write(JSON.stringify(report)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
