import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';

/**
 * Answers `ctx` with a Server-Sent Events body that stays open (GET /v1/events/stream, the
 * analysts' subscriptions): no socket timeout, no Nagle delay, and headers that keep proxies from
 * caching or buffering it.
 *
 * The body is piped to the response here rather than handed to Koa, whose stream.pipeline ends
 * every stream a client leaves with an ERR_STREAM_PREMATURE_CLOSE error: an Error per closed
 * connection, its stack formatted at once (through source maps under `npm start`), which a
 * reconnect storm of hundreds of clients turned into tens of milliseconds of blocked event loop
 * (bench/README.md, "Tenant isolation"). A client that leaves destroys the body without an error.
 */
export function answerAsEventStream(ctx: Context, body: Readable, status = 200): void {
  const response = openEventStream(ctx, status);
  body.pipe(response);
  response.once('close', () => {
    body.unpipe(response);
    body.destroy();
  });
  // The body's end ends the response (pipe does); an error of its own just closes the connection.
  body.once('error', () => response.destroy());
}

/**
 * The head of a Server-Sent Events answer (as above), sent now; the caller writes the events to the
 * response itself (GET /v1/markets/stream, whose messages go to many streams at once: one write
 * each, without a stream in between).
 */
export function openEventStream(ctx: Context, status = 200): ServerResponse {
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = status;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.respond = false;
  const response = ctx.res;
  response.flushHeaders();
  return response;
}
