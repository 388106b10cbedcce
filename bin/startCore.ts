/**
 * `npm run start:core`: the core alone, serving the gateways on CORE_PORT (persisted operations at
 * /graphql, the analysts' documents at /analyst/graphql), to signed principals only.
 */
import http from 'node:http';
import { openCore } from '../core/coreService';
import { createLogger } from '../core/support/logger';
import { closeGracefully, configOrExit, onShutdown, shutdownGraceMs, requireSetting, run } from './process';

run(async () => {
  const config = configOrExit();
  const internalSecret = requireSetting(config, 'INTERNAL_TOKEN');
  const logger = createLogger(config.LOG_LEVEL, 'core');
  const core = await openCore(config, internalSecret, logger);
  const server = http.createServer(core.handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(config.CORE_PORT, config.HOST, resolve));
  logger.info({ port: (server.address() as { port: number }).port }, 'core listening');
  onShutdown(async () => {
    await closeGracefully(server, shutdownGraceMs(config));
    await core.close();
  });
});
