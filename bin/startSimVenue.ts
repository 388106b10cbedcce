/**
 * `npm run start:sim-venue`: the simulated venues (sim-kalshi, sim-polymarket) as one network
 * service on SIM_VENUE_PORT, the books every core configured with SIM_VENUE_URL trades on
 * (docs/simulated-venues.md "As a service"). The markets and the market makers' liquidity are the
 * ones a core builds in its own memory without SIM_VENUE_URL: the same catalog, the same seed.
 */
import http from 'node:http';
import { simVenueToken } from '../core/config';
import { simulatedListings } from '../core/venues/sim/seededCatalog';
import { createLogger } from '../core/support/logger';
import { createSimVenues } from '../core/venues/sim';
import { simVenueListener } from '../core/venues/sim/remote/server';
import { SIM_SEED } from '../core/venues/registry';
import { closeGracefully, configOrExit, onShutdown, run, shutdownGraceMs } from './process';

run(async () => {
  const config = configOrExit();
  const token = simVenueToken(config);
  if (!token) {
    process.stderr.write('invalid configuration: SIM_VENUE_TOKEN (or INTERNAL_TOKEN) is required: the cores send it with every call\n');
    process.exit(2);
  }
  const logger = createLogger(config.LOG_LEVEL, 'sim-venue');
  const venues = createSimVenues(simulatedListings(), { seed: SIM_SEED });
  const { listener, instance } = simVenueListener(venues, { token, logger });
  const server = http.createServer(listener);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(config.SIM_VENUE_PORT, config.HOST, resolve));
  logger.info({ port: (server.address() as { port: number }).port, instance, markets: simulatedListings().length }, 'simulated venues listening');
  onShutdown(() => closeGracefully(server, shutdownGraceMs(config)));
});
