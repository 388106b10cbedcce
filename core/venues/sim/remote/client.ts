/**
 * The cores' side of the simulated venues' service (server.ts): a `Venue` per simulated venue that
 * sends each call over HTTP, within a timeout (and within the caller's deadline where one is
 * given). What the network can do to a call is mapped onto the results the core already handles,
 * as for a live venue: an order that certainly never left is `not_sent`; one whose answer was lost
 * (a timeout, a dropped connection, a 5xx, an answer of the wrong shape) is `unknown`, for the
 * reconciler; a call the service refused before acting (a wrong secret, a malformed call) is
 * `venue_unavailable`; a read that fails throws a `venue_unavailable` DomainError (503).
 */
import { Pool } from 'undici';
import { DomainError } from '../../../domain/errors';
import type {
  OrderBookView,
  QueuePositionView,
  Venue,
  VenueCallOptions,
  VenueAmendRequest,
  VenueAmendResult,
  VenueCancelResult,
  VenueRejection,
  VenueErrorCode,
  VenueFill,
  VenueOrderRequest,
  VenueOrderState,
  VenuePlaceResult,
} from '../../venue';
import type { RestingOrderToRestore } from '../simVenue';
import type { SimVenueName } from '../simMarketRules';
import { SimVenueError } from '../venueRejections';
import { ANSWERS, callPath, INSTANCE_HEADER, isVenueErrorCode, MAX_FILLS_PER_CALL, type Answer, type SimVenueMethod } from './protocol';

export interface SimVenueServiceOptions {
  /** The service's base URL (SIM_VENUE_URL). */
  url: string;
  /** The shared secret (SIM_VENUE_TOKEN). */
  token: string;
  /** The longest any call may take, connecting included (SIM_VENUE_TIMEOUT_MS). */
  timeoutMs: number;
}

/** Transport errors raised before any byte of the request can have reached the service. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Less time than this before the caller's deadline, and a call is not sent: its answer could not arrive in time. */
const MIN_SEND_MS = 50;

type Outcome<M extends SimVenueMethod> =
  | { kind: 'answered'; result: Answer<M> }
  /** The venue refused a read in its own words (SimVenueError, 422). */
  | { kind: 'venue_refused'; code: VenueErrorCode; message: string }
  /** The service turned the call away before acting on it: nothing happened. */
  | { kind: 'refused'; message: string }
  /** Nothing was sent: no connection, or no time left. */
  | { kind: 'not_sent'; message: string }
  /** Sent, and no usable answer came back: the service may have acted. */
  | { kind: 'lost'; message: string };

/** One connection pool to the service, shared by both venues. */
export class SimVenueService {
  private readonly pool: Pool;
  private readonly origin: string;
  private readonly basePath: string;
  /** The start-up id of the service as its last answer gave it; a new one means it was restarted with empty books. */
  instance: string | undefined;

  constructor(private readonly options: SimVenueServiceOptions) {
    const base = new URL(options.url);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.pool = new Pool(this.origin, {
      connections: 16,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 30_000,
    });
  }

  venue(name: SimVenueName): RemoteSimVenue {
    return new RemoteSimVenue(name, this);
  }

  async call<M extends SimVenueMethod>(venue: SimVenueName, method: M, body: object, deadline?: number): Promise<Outcome<M>> {
    const left = deadline === undefined ? Infinity : deadline - Date.now();
    if (left < MIN_SEND_MS) return { kind: 'not_sent', message: `no time was left to send it to ${venue}` };
    const signal = AbortSignal.timeout(Math.max(1, Math.min(this.options.timeoutMs, left)));
    let status: number;
    let text: string;
    try {
      const response = await this.pool.request({
        method: 'POST',
        path: `${this.basePath}${callPath(venue, method)}`,
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify(body),
        signal,
      });
      status = response.statusCode;
      const instance = response.headers[INSTANCE_HEADER];
      if (typeof instance === 'string') this.instance = instance;
      text = await response.body.text();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return { kind: 'not_sent', message: `${venue} could not be reached` };
      const timedOut = signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      return { kind: 'lost', message: timedOut ? `${venue} did not answer in time` : `the connection to ${venue} was lost` };
    }
    const parsed = parseJson(text);
    if (status === 200) {
      const result = ANSWERS[method].safeParse((parsed as { result?: unknown } | undefined)?.result);
      return result.success ? { kind: 'answered', result: result.data as Answer<M> } : { kind: 'lost', message: `${venue} answered something unreadable` };
    }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const message = typeof error?.message === 'string' ? error.message.slice(0, 500) : `${venue} answered ${status}`;
    if (status === 422 && isVenueErrorCode(error?.code)) return { kind: 'venue_refused', code: error.code, message };
    // 4xx other than the venue's own refusals: the service turned the call away before it reached a book.
    if (status >= 400 && status < 500) return { kind: 'refused', message: `${venue} refused the call (${status}): ${message}` };
    return { kind: 'lost', message: `${venue} answered ${status}` };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** One simulated venue, served by the service. */
export class RemoteSimVenue implements Venue {
  constructor(
    readonly name: SimVenueName,
    private readonly service: SimVenueService,
  ) {}

  async placeOrder(request: VenueOrderRequest, options: VenueCallOptions = {}): Promise<VenuePlaceResult> {
    const outcome = await this.service.call(this.name, 'placeOrder', { request }, options.deadline);
    switch (outcome.kind) {
      case 'answered':
        return outcome.result;
      case 'not_sent':
        return { outcome: 'not_sent', reason: 'unreachable', retryAfterMs: 1000, message: `${outcome.message}; the order was not sent` };
      case 'refused':
        return { outcome: 'rejected', code: 'venue_unavailable', venueCode: 'call_refused', message: outcome.message };
      case 'venue_refused':
        return { outcome: 'rejected', code: outcome.code, venueCode: outcome.code, message: outcome.message };
      case 'lost':
        return { outcome: 'unknown', message: `${outcome.message}; whether the order was placed is unknown until it is reconciled` };
    }
  }

  async cancelOrder(clientOrderId: string, options: VenueCallOptions = {}): Promise<VenueCancelResult> {
    return changeOf(await this.service.call(this.name, 'cancelOrder', { clientOrderId }, options.deadline), 'canceled');
  }

  async amendOrder(clientOrderId: string, amend: VenueAmendRequest, options: VenueCallOptions = {}): Promise<VenueAmendResult> {
    return changeOf(await this.service.call(this.name, 'amendOrder', { clientOrderId, amend }, options.deadline), 'amended');
  }

  async getOrder(clientOrderId: string): Promise<VenueOrderState | null> {
    return this.read('getOrder', { clientOrderId });
  }

  /** Pages through the service (MAX_FILLS_PER_CALL a call) until `limit` fills, or all of them without one. */
  async listFills(options: { afterVenueFillId?: string; limit?: number } = {}): Promise<VenueFill[]> {
    const { limit } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new SimVenueError('invalid_request', `limit ${limit} must be a whole number >= 1`);
    }
    const fills: VenueFill[] = [];
    let after = options.afterVenueFillId;
    for (;;) {
      const want = Math.min(MAX_FILLS_PER_CALL, limit === undefined ? MAX_FILLS_PER_CALL : limit - fills.length);
      const page = await this.read('listFills', { ...(after === undefined ? {} : { afterVenueFillId: after }), limit: want });
      fills.push(...page);
      if (page.length < want || (limit !== undefined && fills.length >= limit)) return fills;
      after = page[page.length - 1]!.venueFillId;
    }
  }

  async orderBook(venueMarketId: string, depth?: number): Promise<OrderBookView> {
    return this.read('orderBook', { venueMarketId, ...(depth === undefined ? {} : { depth }) });
  }

  async queuePosition(clientOrderId: string, options: VenueCallOptions = {}): Promise<QueuePositionView | null> {
    return this.read('queuePosition', { clientOrderId }, options.deadline);
  }

  /** Puts the core's resting orders back on the books after the service restarted; orders it knows are left alone (docs/simulated-venues.md). */
  async restoreRestingOrders(orders: readonly RestingOrderToRestore[]): Promise<VenueOrderState[]> {
    return this.read('restoreRestingOrders', { orders });
  }

  private async read<M extends SimVenueMethod>(method: M, body: object, deadline?: number): Promise<Answer<M>> {
    const outcome = await this.service.call(this.name, method, body, deadline);
    if (outcome.kind === 'answered') return outcome.result;
    if (outcome.kind === 'venue_refused') throw new SimVenueError(outcome.code, outcome.message);
    throw new DomainError('venue_unavailable', `The venue ${this.name} is not available: ${outcome.message}.`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A cancel's or an amend's outcome as the venue contract speaks it: the venue's answer; its own
 * refusal; `venue_unavailable` when the call never reached it (nothing changed); `unknown` when the
 * answer was lost (read the order, never re-send blind).
 */
function changeOf<M extends 'cancelOrder' | 'amendOrder'>(outcome: Outcome<M>, done: 'canceled' | 'amended'): Answer<M> | VenueRejection | { outcome: 'unknown'; message: string } {
  switch (outcome.kind) {
    case 'answered':
      return outcome.result;
    case 'not_sent':
    case 'refused':
      return { outcome: 'rejected', code: 'venue_unavailable', venueCode: 'not_sent', message: `${outcome.message}; nothing was ${done}` };
    case 'venue_refused':
      return { outcome: 'rejected', code: outcome.code, venueCode: outcome.code, message: outcome.message };
    case 'lost':
      return { outcome: 'unknown', message: `${outcome.message}; whether the order was ${done} is unknown` };
  }
}
