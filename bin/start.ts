/**
 * `npm start`: core and gateway in one process, on the embedded database unless DATABASE_URL is
 * set. The gateway reaches the core in-process, with the same persisted operations and signed
 * principals as over the network.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { openCore } from '../core/coreService';
import { ANALYST_GRAPHQL_PATH } from '../contract/endpoints';
import { createDemoWorkspaceIfEmpty } from '../core/services/accounts/demo';
import { createLogger } from '../core/support/logger';
import { inProcessTransport } from '../gateway/coreClient';
import { openGateway } from '../gateway/gatewayService';
import { closeGracefully, configOrExit, onShutdown, shutdownGraceMs, run } from './process';

run(async () => {
  const config = configOrExit();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const internalSecret = config.INTERNAL_TOKEN ?? randomBytes(32).toString('base64url');
  const core = await openCore(config, internalSecret, logger, { inProcessOnly: true });
  const gateway = openGateway(config, {
    transport: inProcessTransport(core),
    internalSecret,
    revocations: core.revocations,
    revocationsReachUs: true,
    logger,
    coreMetrics: core.metrics,
    events: core.events,
  });
  // One port: the REST API, the dashboard, and the analysts' GraphQL (GraphiQL in a browser) at /analyst/graphql.
  const server = http.createServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address() as { port: number };
  const baseUrl = `http://${config.HOST}:${address.port}`;
  logger.info({ url: baseUrl, database: config.DATABASE_URL ? 'postgresql' : `pglite:${config.PGLITE_DATA_DIR}` }, 'listening');

  const demo = await createDemoWorkspaceIfEmpty(core.db);
  if (demo) {
    // Printed once, to the terminal only: the database keeps nothing but SHA-256 hashes.
    process.stdout.write(
      [
        '',
        `Demo workspace ${demo.workspace.id} created. These secrets are shown once; keep them.`,
        `  test API key ${demo.key.id}:   ${demo.secret}`,
        `  dashboard token:  ${demo.dashboardSecret}`,
        `Dashboard: ${baseUrl}/dashboard/  (sign in as ${demo.user.email}, password ${demo.password})`,
        `Try: curl -H "Authorization: Bearer ${demo.secret}" ${baseUrl}/v1/markets`,
        `Analysts: ${baseUrl}${ANALYST_GRAPHQL_PATH} (GraphiQL; Authorization: Bearer <dashboard token>)`,
        `For the README's examples, paste into a terminal:`,
        `  KEY=${demo.secret}  DASH=${demo.dashboardSecret}  WS=${demo.workspace.id}  API=${baseUrl}`,
        '',
      ].join('\n'),
    );
  }
  onShutdown(async () => {
    gateway.endStreams(); // clients reconnect elsewhere with Last-Event-ID
    await closeGracefully(server, shutdownGraceMs(config));
    await gateway.close();
    await core.close();
  });
});
