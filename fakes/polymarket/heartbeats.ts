/**
 * Polymarket's heartbeats: a dead-man's switch per API key.
 *
 * Sources: the official client's `postHeartbeat(heartbeatId = "")` (github.com/Polymarket/
 * clob-client-v2 at f3e1a05, src/client.ts, path `HEARTBEAT = "/v1/heartbeats"` in src/endpoints.ts):
 * an L2-signed `POST /v1/heartbeats` with body `{"heartbeat_id": id}`, answered
 * `{heartbeat_id, error_msg?}`. docs.polymarket.com "Send heartbeat" (api-reference/trade/
 * send-heartbeat): "If heartbeats are not sent regularly, all open orders for the user will be
 * automatically canceled." The rotation and the refusal are those Polymarket's Python SDK handles
 * (its transport test: a stale id answers 400 `{"error_msg": "Invalid Heartbeat ID",
 * "heartbeat_id": <the expected id>}`, so that a client that lost an answer can resynchronize; a
 * refused heartbeat is no acknowledgment). The venue's timeout is about 10 s (not published as a
 * number on the pages read; a parameter here, short in tests).
 *
 * The chain: a key's first heartbeat sends `""` and starts it; each answer carries a new id that the
 * next heartbeat must send. Any other id (a stale one, or `""` while a chain runs) answers 400 and
 * does not move the deadline. When no valid heartbeat arrives within the timeout, every open order
 * of the key is cancelled (each a CANCELLATION on the user channel) and the chain ends: the next
 * heartbeat starts again with `""`.
 */
import { randomUUID } from 'node:crypto';
import type { ClobAnswer } from './errors';

interface Chain {
  id: string;
  timer: NodeJS.Timeout;
}

export class Heartbeats {
  private readonly chains = new Map<string, Chain>();

  constructor(
    private timeoutMs: number,
    /** Cancels every open order of an API key; called when its chain lapses. */
    private readonly cancelAll: (apiKey: string) => void,
  ) {}

  get timeout(): number {
    return this.timeoutMs;
  }

  /** Applies to chains from their next heartbeat on. */
  setTimeout(ms: number): void {
    this.timeoutMs = ms;
  }

  /** POST /v1/heartbeats for an authenticated key. */
  beat(apiKey: string, body: unknown): ClobAnswer {
    const sent = typeof body === 'object' && body !== null ? (body as { heartbeat_id?: unknown }).heartbeat_id : undefined;
    const chain = this.chains.get(apiKey);
    const expected = chain?.id ?? '';
    if (sent !== expected) return { status: 400, body: { heartbeat_id: expected, error_msg: 'Invalid Heartbeat ID' } };
    if (chain !== undefined) clearTimeout(chain.timer);
    const id = randomUUID();
    const timer = setTimeout(() => this.lapse(apiKey), this.timeoutMs);
    timer.unref();
    this.chains.set(apiKey, { id, timer });
    return { status: 200, body: { heartbeat_id: id } };
  }

  close(): void {
    for (const chain of this.chains.values()) clearTimeout(chain.timer);
    this.chains.clear();
  }

  private lapse(apiKey: string): void {
    this.chains.delete(apiKey);
    this.cancelAll(apiKey);
  }
}
