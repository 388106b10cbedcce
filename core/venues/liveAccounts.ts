import type { Exchange } from '../generated/prisma/client';
import type { Db } from '../db/prismaClient';
import type { Logger } from '../support/logger';
import { outsideRequest } from '../support/requestContext';
import { observedLiveVenue, type VenueCallObserver } from './observedVenue';
import type { LiveVenue } from './venue';

/** The stored credential row's identity: a replaced credential is a new row version (new id or date). */
interface CredentialVersion {
  readonly id: string;
  readonly createdAt: number;
}

/** Opens the live venue of one subaccount from its stored credential (decrypts, builds the session). */
export type OpenLiveAccount = (subaccountId: string) => Promise<LiveVenue>;

interface OpenAccount {
  readonly version: CredentialVersion;
  readonly venue: Promise<LiveVenue>;
}

/**
 * The open accounts of one live venue: one `LiveVenue` (session, streams) per subaccount, opened
 * from the subaccount's stored credential on first use and shared by every request after.
 *
 * Every use checks the credential row's version (one indexed read): a credential replaced or
 * removed (on this core or another) closes the old account, so a removed key signs nothing more
 * and a replaced one is used from the next request on. Two concurrent first uses open once.
 * `decorate` wraps each account as it opens (the core's metrics observe every call through it).
 * `callTimeoutMs` is the venue's limit for one call (its `*_TIMEOUT_MS`): what a claim on one of
 * its orders must outlast (the live reconciler's lease).
 */
export class LiveAccounts {
  private readonly open = new Map<string, OpenAccount>();

  constructor(
    private readonly db: Db,
    private readonly exchange: Exchange,
    readonly callTimeoutMs: number,
    private readonly openAccount: OpenLiveAccount,
    private readonly decorate: (venue: LiveVenue) => LiveVenue = (venue) => venue,
  ) {}

  /** The subaccount's account, or undefined when it has no credential for this exchange. */
  async forSubaccount(subaccountId: string): Promise<LiveVenue | undefined> {
    const row = await this.db.exchangeCredential.findUnique({
      where: { subaccountId_exchange: { subaccountId, exchange: this.exchange } },
      select: { id: true, createdAt: true },
    });
    const current = this.open.get(subaccountId);
    if (!row) {
      if (current) this.forget(subaccountId, current);
      return undefined;
    }
    const version = { id: row.id, createdAt: row.createdAt.getTime() };
    if (current && current.version.id === version.id && current.version.createdAt === version.createdAt) {
      return current.venue;
    }
    if (current) this.forget(subaccountId, current);
    // Opened for every later request too (its session, its streams): outside the one that opens it, whose id its lines do not carry.
    const venue = outsideRequest(() => this.openAccount(subaccountId)).then(this.decorate);
    const entry = { version, venue };
    this.open.set(subaccountId, entry);
    // A failed opening (e.g. a credential without an environment) is not kept: the next use tries again.
    venue.catch(() => {
      if (this.open.get(subaccountId) === entry) this.open.delete(subaccountId);
    });
    return venue;
  }

  /** The accounts open now, for sweeps and comparisons. */
  opened(): { subaccountId: string; venue: Promise<LiveVenue> }[] {
    return [...this.open].map(([subaccountId, entry]) => ({ subaccountId, venue: entry.venue }));
  }

  async closeAll(): Promise<void> {
    const entries = [...this.open.values()];
    this.open.clear();
    await Promise.all(entries.map((entry) => entry.venue.then((venue) => venue.close(), () => undefined)));
  }

  private forget(subaccountId: string, entry: OpenAccount) {
    this.open.delete(subaccountId);
    void entry.venue.then((venue) => venue.close(), () => undefined);
  }
}

/**
 * What every live venue's accounts take from how the venue is opened (VenueModule.openLive): its
 * configuration and keys, the logger, the fill sweep's window, whether the private stream runs, and
 * the core's observer around each account.
 */
export function liveAccountOptions<Settings extends { LIVE_FILL_SWEEP_WINDOW_MS: number }>(
  deps: { config: Settings; keyring: ReadonlyMap<string, Buffer>; logger: Logger; observer: VenueCallObserver },
  streamEnabled: boolean,
) {
  return {
    config: deps.config,
    keyring: deps.keyring,
    logger: deps.logger,
    sweepWindowMs: deps.config.LIVE_FILL_SWEEP_WINDOW_MS,
    stream: { enabled: streamEnabled },
    decorate: (venue: LiveVenue) => observedLiveVenue(venue, deps.observer),
  };
}
