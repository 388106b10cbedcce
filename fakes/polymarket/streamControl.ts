/**
 * The Polymarket fake's control routes for its live parts (user channel, settlement clock,
 * heartbeats), under `/_fake/` beside controlApi.ts's. Not Polymarket's API; JSON in and out.
 *
 *   POST /_fake/heartbeats  {timeout_ms}          the heartbeat timeout from the next heartbeat on
 *   POST /_fake/settlement  {mined_after_ms?, confirmed_after_ms?, automatic?, fail_next?}
 *                           the settlement clock; fail_next: the next n trades go RETRYING -> FAILED
 *   GET  /_fake/positions                         what each account received and paid through
 *                                                 trades not FAILED (settlement.ts)
 *   POST /_fake/ws/push     {api_key, event}      sends `event` (any JSON, or a string as is) on
 *                                                 the account's user-channel sockets: {sent: n}
 *   POST /_fake/ws/drop                           terminates every socket (no close frame)
 *   POST /_fake/ws/freeze   {frozen}              sockets stay open, nothing is sent (not even PONG)
 */
import { z } from 'zod';
import type { ClobAnswer } from './errors';
import type { Heartbeats } from './heartbeats';
import type { Settlement } from './settlement';
import type { UserChannel } from './userChannel';

export interface StreamControls {
  readonly userChannel: UserChannel;
  dropWebSockets(): void;
  freezeWebSockets(frozen: boolean): void;
  readonly settlement: Settlement;
  readonly heartbeats: Heartbeats;
}

const answer = (status: number, body: unknown): ClobAnswer => ({ status, body });
const bad = (message: string): ClobAnswer => answer(400, { error: message });
const ms = z.number().int().min(0).max(3_600_000);

const settlementBody = z.object({
  mined_after_ms: ms.optional(),
  confirmed_after_ms: ms.optional(),
  automatic: z.boolean().optional(),
  fail_next: z.number().int().min(0).max(1000).optional(),
});

/** The answer to a live-parts control route, or undefined when the route is not one of these. */
export function handleStreamControl(fake: StreamControls, method: string, path: string, body: Record<string, unknown>): ClobAnswer | undefined {
  if (method === 'POST' && path === '/_fake/heartbeats') {
    const timeout = ms.min(1).safeParse(body.timeout_ms);
    if (!timeout.success) return bad('timeout_ms must be an integer of milliseconds, 1 to 3600000');
    fake.heartbeats.setTimeout(timeout.data);
    return answer(200, { timeout_ms: timeout.data });
  }
  if (method === 'POST' && path === '/_fake/settlement') {
    const parsed = settlementBody.safeParse(body);
    if (!parsed.success) return bad('settlement takes mined_after_ms, confirmed_after_ms (ms), automatic (boolean), fail_next (count)');
    const b = parsed.data;
    fake.settlement.configure({
      ...(b.mined_after_ms === undefined ? {} : { minedAfterMs: b.mined_after_ms }),
      ...(b.confirmed_after_ms === undefined ? {} : { confirmedAfterMs: b.confirmed_after_ms }),
      ...(b.automatic === undefined ? {} : { automatic: b.automatic }),
    });
    if (b.fail_next !== undefined) fake.settlement.failNext(b.fail_next);
    return answer(200, { ok: true });
  }
  if (method === 'GET' && path === '/_fake/positions') return answer(200, { positions: fake.settlement.positions() });
  if (method === 'POST' && path === '/_fake/ws/push') {
    if (typeof body.api_key !== 'string' || body.event === undefined) return bad('push needs api_key and event');
    return answer(200, { sent: fake.userChannel.push(body.api_key, body.event) });
  }
  if (method === 'POST' && path === '/_fake/ws/drop') {
    fake.dropWebSockets();
    return answer(200, { ok: true });
  }
  if (method === 'POST' && path === '/_fake/ws/freeze') {
    if (typeof body.frozen !== 'boolean') return bad('freeze needs frozen: true or false');
    fake.freezeWebSockets(body.frozen);
    return answer(200, { frozen: body.frozen });
  }
  return undefined;
}
