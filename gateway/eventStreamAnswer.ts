import type { Readable } from 'node:stream';
import type { Context } from 'koa';

/**
 * Answers `ctx` with a Server-Sent Events body that stays open (GET /v1/events/stream, the
 * analysts' subscriptions): no socket timeout, no Nagle delay, and headers that keep proxies from
 * caching or buffering it.
 */
export function answerAsEventStream(ctx: Context, body: Readable, status = 200): void {
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = status;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.body = body;
}
