/**
 * A client that stops reading its event stream (docs/events.md): once more than 1 MiB waits for it,
 * the gateway cuts the connection at once rather than keep buffering, and the stream's place under
 * the per-credential limit is free again; reconnecting with Last-Event-ID loses nothing.
 */
import http from 'node:http';
import { EventStreamClient } from '../support/eventStream';
import { ownDatabase } from '../support/ownDatabase';
import { testConfig } from '../support/env';
import { startStack, type Stack } from '../support/stack';
import { createSubaccount, newTrader, type Trader } from '../trading/helpers';

let stack: Stack;
let trader: Trader;
let subaccount: string;

beforeAll(async () => {
  stack = await startStack(testConfig({ DATABASE_URL: await ownDatabase('event_slow_client'), EVENT_STREAMS_PER_KEY: '1' }));
  trader = await newTrader(stack.core.db, stack.gateways[0]!, 'Slow client');
  subaccount = await createSubaccount(trader, 'slow');
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

test('a client more than 1 MiB behind is cut off, its place freed; resuming with Last-Event-ID gets the rest', async () => {
  // A stream whose client reads nothing after the head of the answer.
  const url = new URL(`${trader.base}/v1/events/stream`);
  const received: Buffer[] = [];
  let closed = false;
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(url, { headers: { authorization: `Bearer ${trader.secret}` } }, resolve);
    request.on('error', reject);
  });
  expect(response.statusCode).toBe(200);
  response.once('data', (chunk: Buffer) => {
    received.push(chunk); // `retry: 1000`: the stream is open
    response.pause();
  });
  response.on('close', () => void (closed = true));
  response.on('error', () => undefined);
  await new Promise((resolve) => setTimeout(resolve, 200));

  // 300 events of ~64 KiB each (a refusal's message), about 19 MiB: far beyond what loopback's
  // socket buffers and the gateway's 1 MiB allowance hold.
  const message = 'x'.repeat(64 * 1024);
  await stack.core.db.$executeRawUnsafe(
    `SELECT mk_record_event('risk_limit.breached', $1, 'test'::"Environment", $2, 'risk_limit_breach', $2, NULL,
                            jsonb_build_object('subaccountId', $2::text, 'marketId', 'mkt_x', 'limit', 'max_order_notional', 'message', $3::text || i,
                                               'side', 'yes', 'action', 'buy', 'type', 'limit', 'price', '0.5', 'quantity', '1', 'clientOrderId', NULL,
                                               'createdAt', now()))
       FROM generate_series(1, 300) i`,
    trader.workspaceId,
    subaccount,
    message,
  );

  // The place is freed once the gateway has cut the connection: a new stream of the same key (limit 1) opens.
  let resumed: EventStreamClient | undefined;
  const deadline = Date.now() + 60_000; // guards, not measures: 19 MiB through a loaded machine
  while (!resumed && Date.now() < deadline) {
    const attempt = await EventStreamClient.open(trader.base, { key: trader.secret });
    if (attempt.status === 200) resumed = attempt;
    else {
      expect(attempt.error).toMatchObject({ code: 'rate_limited' });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  expect(resumed).toBeDefined();
  resumed!.close();
  // The slow client's connection is gone though it never read on: it was cut, not ended politely
  // (an ended stream would wait for a client that does not read).
  for (const until = Date.now() + 3000; !closed && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(closed).toBe(true);
  const text = Buffer.concat([...received]).toString('utf8');
  expect(text.startsWith('retry: 1000')).toBe(true);

  // Resuming from the start of the log (as a client that had read nothing would): all 300, in order.
  const first = await EventStreamClient.open(trader.base, { key: trader.secret }, { query: 'after=evt_00000000000000000000000000' });
  try {
    await first.until((s) => s.events.length >= 300, 60_000, 'the 300 events');
    expect(first.events.map((e) => e.data.message.slice(64 * 1024))).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));
  } finally {
    first.close();
  }
}, 180_000);
