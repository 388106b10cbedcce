/**
 * How the fills of a core's resting orders reach its database when the simulated venues are a
 * service (docs/simulated-venues.md "As a service"). Another core's order can fill ours at any time,
 * and the service has no stream: every core reads the venues' fills after the last one it has seen
 * (`listFills(afterVenueFillId)`), every SIM_VENUE_POLL_MS, and records those of its database's
 * orders through the idempotent path, so that two cores recording the same fill record it once.
 *
 * The same rounds put the core's resting orders back when the service restarted empty: each answer
 * names the service's start-up, and a start-up this core has not restored to yet gets the resting
 * orders of its database (restoring is idempotent by client order id, so every core may do it).
 */
import type { VenueColumn } from '../../venueNames';
import type { Logger } from '../../../support/logger';
import { runPeriodically } from '../../../support/periodic';
import type { VenueFill } from '../../venue';
import type { RemoteSimVenue, SimVenueService } from './client';
import { MAX_FILLS_PER_CALL } from './protocol';

export interface FillPollingOptions {
  service: SimVenueService;
  venues: ReadonlyMap<VenueColumn, RemoteSimVenue>;
  /** Puts this core's resting orders of `venue` back on the service's books. */
  restore(venue: VenueColumn, remote: RemoteSimVenue): Promise<void>;
  /** Records the fills of this core's orders among `fills`, idempotently by venue fill id. */
  record(venue: VenueColumn, fills: VenueFill[]): Promise<unknown>;
  intervalMs: number;
  logger: Logger;
}

export interface FillPolling {
  /** One round now: restore where the service is new to us, then read and record the fills since the last round. */
  round(): Promise<void>;
  stop(): Promise<void>;
}

export function startFillPolling(options: FillPollingOptions): FillPolling {
  const { service, venues } = options;
  /** Per venue: the service start-up its books were last restored for, and the last fill read from it. */
  const restoredFor = new Map<VenueColumn, string>();
  const cursors = new Map<VenueColumn, string>();

  const syncVenue = async (column: VenueColumn, remote: RemoteSimVenue) => {
    if (service.instance === undefined || restoredFor.get(column) !== service.instance) {
      await options.restore(column, remote);
      // The restore's answer named the start-up it reached (with nothing to restore, the next call
      // names it and the next round confirms); fill ids from another start-up mean nothing to this one.
      if (service.instance !== undefined) restoredFor.set(column, service.instance);
      cursors.delete(column);
    }
    for (;;) {
      const after = cursors.get(column);
      const fills = await remote.listFills({ ...(after === undefined ? {} : { afterVenueFillId: after }), limit: MAX_FILLS_PER_CALL });
      if (fills.length === 0) return;
      await options.record(column, fills);
      cursors.set(column, fills[fills.length - 1]!.venueFillId);
      if (fills.length < MAX_FILLS_PER_CALL) return;
    }
  };

  // One round at a time, whoever asks (the periodic timer, or the start-up's first round).
  let running: Promise<void> | null = null;
  const round = () => {
    running ??= (async () => {
      for (const [column, remote] of venues) await syncVenue(column, remote);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const periodic = runPeriodically(options.intervalMs, round, (error) =>
    options.logger.warn({ err: error }, 'reading the simulated venues\' fills failed; retrying on the next round'),
  );
  return {
    round,
    async stop() {
      await periodic.stop();
      await running;
    },
  };
}
