import { Writable } from 'node:stream';
import { Client } from 'pg';
import { createLogger } from '../../core/support/logger';
import { inRequest, outsideRequest } from '../../core/support/requestContext';
import { testConfig } from '../support/env';
import { buildWorkspace } from '../support/factories';
import { call, envelopeOf, ok } from '../support/http';
import { ownDatabase } from '../support/ownDatabase';
import { startStack, type Stack } from '../support/stack';

/**
 * A 500's `request_id` finds its cause in the log: the core's line for an unexpected error carries
 * the request id the client was answered with, whether the core runs in the gateway's process or
 * behind it on the network. Work a request leaves behind logs without it once the request is over.
 */
function logSink() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('info', 'test', new Writable({ write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()) }));
  return { logger, lines };
}

describe('request ids in the log', () => {
  it('a line logged while a request is served carries its id; one logged by work it left behind, after it ended, does not', async () => {
    const { logger, lines } = logSink();
    let later!: Promise<void>;
    await inRequest('req_0123456789abcdef', async () => {
      logger.info('inside');
      later = new Promise((resolve) => setTimeout(() => resolve(logger.info('after')), 20));
    });
    await later;
    expect(lines.find((line) => line.msg === 'inside')).toMatchObject({ requestId: 'req_0123456789abcdef' });
    expect(lines.find((line) => line.msg === 'after')).not.toHaveProperty('requestId');
  });

  it('what a request creates for everyone (outsideRequest) logs without its id, even while the request lasts', async () => {
    const { logger, lines } = logSink();
    await inRequest('req_fedcba9876543210', async () => {
      const shared = outsideRequest(() => new Promise<void>((resolve) => setTimeout(() => resolve(logger.info('shared')), 5)));
      await shared;
      logger.info('own');
    });
    expect(lines.find((line) => line.msg === 'shared')).not.toHaveProperty('requestId');
    expect(lines.find((line) => line.msg === 'own')).toMatchObject({ requestId: 'req_fedcba9876543210' });
  });

  describe.each(['single', 'split'] as const)('%s deployment', (mode) => {
    let stack: Stack;
    let databaseUrl: string;
    let secret: string;
    let marketId: string;
    const sink = logSink();

    beforeAll(async () => {
      databaseUrl = await ownDatabase(`request_ids_${mode}`);
      // No catalog cache: every market read reaches the core and its database.
      stack = await startStack(testConfig({ DATABASE_URL: databaseUrl, CATALOG_CACHE_MS: '0', LOG_LEVEL: 'info' }), mode, 1, { logger: sink.logger });
      ({ secret } = await buildWorkspace(stack.core.db));
      marketId = ok(await call(stack.gateways[0], 'GET', '/v1/markets?limit=1', { key: secret }), 'markets').data[0].id;
    });
    afterAll(() => stack.close());

    it("the core's log line for an unexpected error carries the request id of the 500", async () => {
      const admin = new Client({ connectionString: databaseUrl });
      await admin.connect();
      // The market read now fails in PostgreSQL: an error no code path expects.
      await admin.query('ALTER TABLE markets RENAME COLUMN title TO title_gone');
      try {
        const response = await call(stack.gateways[0], 'GET', `/v1/markets/${marketId}`, { key: secret, headers: { 'x-request-id': `req_${mode}_own_id_42` } });
        expect(response.status).toBe(500);
        const error = envelopeOf(response);
        expect(error).toMatchObject({ code: 'internal_error', request_id: `req_${mode}_own_id_42` });
        const logged = sink.lines.filter((line) => line.msg === 'unexpected error in a resolver');
        expect(logged).toHaveLength(1);
        expect(logged[0]).toMatchObject({ requestId: `req_${mode}_own_id_42`, err: { dbCode: expect.any(String) } });
      } finally {
        await admin.query('ALTER TABLE markets RENAME COLUMN title_gone TO title');
        await admin.end();
      }
    });
  });
});
