/**
 * The simulated venues as a network service (`npm run start:sim-venue`, bin/startSimVenue.ts): the
 * books every core trades on when cores run apart (docs/simulated-venues.md "As a service"). Each
 * call runs one `SimVenue` method; the venue is in memory and its methods finish without waiting,
 * so calls are applied one at a time, in the order they arrive, like a real venue's matching engine.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import getRawBody from 'raw-body';
import type { Logger } from '../../../support/logger';
import { bearerTokenMatches } from '../../../support/metrics';
import type { SimVenue } from '../simVenue';
import { SimVenueError } from '../venueRejections';
import type { VenueOrderRequest } from '../../venue';
import { INSTANCE_HEADER, MAX_BODY_BYTES, MAX_FILLS_PER_CALL, REQUEST_BODIES, SIM_VENUE_METHODS, type RequestBody, type SimVenueMethod } from './protocol';
import { SIM_VENUE_NAMES } from '../venueModules';

export interface SimVenueServerOptions {
  /** The shared secret every call carries as `Authorization: Bearer <token>`. */
  token: string;
  logger: Logger;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The service's request listener. `instance` is this start's id, sent on every answer. */
export function simVenueListener(venues: ReadonlyMap<string, SimVenue>, options: SimVenueServerOptions): { listener: http.RequestListener; instance: string } {
  const instance = randomUUID();
  const listener: http.RequestListener = (req, res) => {
    void answer(req).then(
      (result) => send(res, 200, { result: result ?? null }),
      (error: unknown) => {
        if (error instanceof Refusal) return send(res, error.status, { error: { code: error.code, message: error.message } });
        if (error instanceof SimVenueError) return send(res, 422, { error: { code: error.code, message: error.message } });
        options.logger.error({ err: error, path: req.url }, 'simulated venue call failed');
        send(res, 500, { error: { code: 'venue_error', message: 'The simulated venue failed to carry out the call.' } });
      },
    );
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json', [INSTANCE_HEADER]: instance, 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify(body));
  };

  async function answer(req: http.IncomingMessage): Promise<unknown> {
    const { pathname } = new URL(req.url ?? '/', 'http://sim-venue');
    if (pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'method_not_allowed', 'Use GET.');
      return { status: 'ok', instance };
    }
    if (!bearerTokenMatches(options.token, req.headers.authorization)) throw new Refusal(401, 'unauthorized', 'The shared secret is missing or wrong.');
    const match = /^\/venue\/([a-z-]+)\/([A-Za-z]+)$/.exec(pathname);
    const venue = match ? venues.get(match[1]) : undefined;
    const method = match && (SIM_VENUE_METHODS as readonly string[]).includes(match[2]) ? (match[2] as SimVenueMethod) : undefined;
    if (!venue || !method) throw new Refusal(404, 'not_found', `No such call; calls are POST /venue/{${SIM_VENUE_NAMES.join('|')}}/{${SIM_VENUE_METHODS.join('|')}}.`);
    if (req.method !== 'POST') throw new Refusal(405, 'method_not_allowed', 'Calls are POST.');
    return call(venue, method, await readJson(req));
  }

  return { listener, instance };
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new Refusal(415, 'unsupported_media_type', 'The body must be application/json.');
  let text: string;
  try {
    text = await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: 'utf8', length: req.headers['content-length'] });
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 413) throw new Refusal(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes.`);
    throw new Refusal(400, 'invalid_request', 'The body could not be read.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(400, 'invalid_json', 'The body is not valid JSON.');
  }
}

function parse<M extends SimVenueMethod>(method: M, body: unknown): RequestBody<M> {
  const parsed = REQUEST_BODIES[method].safeParse(body);
  if (parsed.success) return parsed.data as RequestBody<M>;
  const issue = parsed.error.issues[0]!;
  throw new Refusal(400, 'invalid_request', `${issue.path.join('.') || 'body'}: ${issue.message}`);
}

async function call(venue: SimVenue, method: SimVenueMethod, body: unknown): Promise<unknown> {
  switch (method) {
    case 'placeOrder':
      // Only the shape is checked here: the venue judges the values (side, type, tick, size) and refuses them in its own words.
      return venue.placeOrder(parse(method, body).request as VenueOrderRequest);
    case 'cancelOrder':
      return venue.cancelOrder(parse(method, body).clientOrderId);
    case 'amendOrder': {
      const { clientOrderId, amend } = parse(method, body);
      return venue.amendOrder(clientOrderId, amend);
    }
    case 'getOrder':
      return venue.getOrder(parse(method, body).clientOrderId);
    case 'listFills': {
      const { afterVenueFillId, limit = MAX_FILLS_PER_CALL } = parse(method, body);
      return venue.listFills({ afterVenueFillId, limit });
    }
    case 'orderBook': {
      const { venueMarketId, depth } = parse(method, body);
      return venue.orderBook(venueMarketId, depth);
    }
    case 'queuePosition':
      return venue.queuePosition(parse(method, body).clientOrderId);
    case 'restoreRestingOrders':
      return venue.restoreRestingOrders(parse(method, body).orders);
  }
}
