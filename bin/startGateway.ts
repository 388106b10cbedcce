/** `npm run start:gateway`: one REST gateway replica, reaching the core at CORE_URL. */
import http from 'node:http';
import { createRevocationBus } from '../contract/revocationBus';
import { createLogger } from '../core/support/logger';
import { httpTransport } from '../gateway/coreClient';
import { openGateway } from '../gateway/gatewayService';
import { closeGracefully, configOrExit, onShutdown, shutdownGraceMs, requireSetting, run } from './process';

run(async () => {
  const config = configOrExit();
  const internalSecret = requireSetting(config, 'INTERNAL_TOKEN');
  const coreUrl = requireSetting(config, 'CORE_URL');
  const logger = createLogger(config.LOG_LEVEL, 'gateway');
  const revocations = createRevocationBus(config.REDIS_URL);
  const gateway = openGateway(config, {
    transport: httpTransport(coreUrl),
    internalSecret,
    revocations,
    revocationsReachUs: revocations.shared,
    logger,
  });
  const server = http.createServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  logger.info({ port: (server.address() as { port: number }).port, core: coreUrl }, 'gateway listening');
  onShutdown(async () => {
    gateway.endStreams(); // clients reconnect elsewhere with Last-Event-ID
    await closeGracefully(server, shutdownGraceMs(config));
    await gateway.close();
    await revocations.close();
  });
});
