import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work serves, so that every log line written while it is served carries
 * its request id (`requestId`, the X-Request-Id the client is answered with), in the gateway and in
 * the core alike: in one process the gateway's context reaches the core's resolvers; across the
 * network the gateway sends the id to the core (CORE_REQUEST_ID_HEADER) and the core serves the
 * request in a context of its own.
 *
 * Work the request starts and that outlives it (a venue's stream opened on first use, a timer) keeps
 * the context object, so the context is closed when the request ends: its later lines carry no id
 * rather than a stale one.
 */
interface RequestContext {
  readonly requestId: string;
  open: boolean;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** What a request id may be: the gateway's own (`req_` and 32 hex) or a sane one the client sent. */
export const REQUEST_ID = /^[A-Za-z0-9_.:-]{8,128}$/;

/** Runs `work` as serving the request `requestId`, until the promise it returns settles. */
export async function inRequest<T>(requestId: string, work: () => Promise<T>): Promise<T> {
  const context: RequestContext = { requestId, open: true };
  try {
    return await storage.run(context, work);
  } finally {
    context.open = false;
  }
}

/** The id of the request being served here, if any and if it is still being served. */
export function currentRequestId(): string | undefined {
  const context = storage.getStore();
  return context?.open ? context.requestId : undefined;
}

/** `work` as serving the request a header names (the gateway's CORE_REQUEST_ID_HEADER), or as it is when the header names none. */
export function inRequestNamed<T>(header: unknown, work: () => T | Promise<T>): Promise<T> {
  return typeof header === 'string' && REQUEST_ID.test(header) ? inRequest(header, async () => work()) : Promise.resolve(work());
}

/** `work` outside any request: for what one request creates and many share (an event hub and its timer), whose lines name no request. */
export function outsideRequest<T>(work: () => T): T {
  return storage.exit(work);
}
