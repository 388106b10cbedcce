import type { IncomingMessage } from 'node:http';
import { ReconnectingStream, type StreamConnection, type StreamOptions } from '../reconnectingStream';
import { readKalshiError } from './errors';
import type { KalshiSigner } from './signing';

/** 2.5 x Kalshi's 10 s ping interval. */
export const KALSHI_STREAM_DEFAULT_STALE_AFTER_MS = 25_000;
export const KALSHI_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

/** The most of a refused handshake's body read (Kalshi's error JSON is far smaller). */
const MAX_REFUSAL_BODY = 4096;

/** How a handshake Kalshi answered with something other than 101 ends an attempt. */
export type KalshiHandshakeRefused = { readonly kind: 'handshake_refused'; readonly status: number; readonly venueCode: string };

/** A connection of a signed Kalshi stream: whether it has sent its own ping since it last heard anything. */
export interface KalshiConnection<P extends { readonly kind: string }> extends StreamConnection<P> {
  probed: boolean;
}

/**
 * What every signed Kalshi WebSocket stream does the same way (Trade API v2 `/trade-api/ws/v2`, the
 * private stream and the book feed): the signed handshake (a fresh signature per attempt), one
 * ping of our own after half the stale period of silence (Kalshi: "Client sends Ping frame to
 * elicit Pong"), a refused handshake read for Kalshi's code (at most 4 KiB), and a 4xx other than
 * 429 taken as a refusal (a bad key, the wrong environment, a clock off Kalshi's window).
 */
export abstract class KalshiSignedStream<P extends { readonly kind: string }, C extends KalshiConnection<P>> extends ReconnectingStream<P, C> {
  protected constructor(
    private readonly signer: KalshiSigner,
    options: StreamOptions,
  ) {
    super('Kalshi', options, { staleAfterMs: KALSHI_STREAM_DEFAULT_STALE_AFTER_MS, handshakeTimeoutMs: KALSHI_STREAM_DEFAULT_HANDSHAKE_TIMEOUT_MS });
  }

  protected handshakeHeaders(): Record<string, string> {
    return { ...this.signer.webSocket() };
  }

  protected override onHeard(conn: C): void {
    conn.probed = false;
  }

  protected override idle(conn: C, silentMs: number): void {
    if (silentMs < this.settings.staleAfterMs / 2 || conn.probed) return;
    conn.probed = true;
    conn.socket.ping();
  }

  protected override refused(conn: C, res: IncomingMessage): void {
    let body = '';
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      if (conn.endedBecause !== null) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const status = res.statusCode ?? 0;
      const refusal: KalshiHandshakeRefused = { kind: 'handshake_refused', status, venueCode: readKalshiError(status, parsed).code };
      this.end(conn, refusal as unknown as P);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (body.length < MAX_REFUSAL_BODY) body += chunk.slice(0, MAX_REFUSAL_BODY - body.length);
    });
    res.on('end', finish);
    res.on('error', finish);
    res.on('close', finish);
  }

  /** A refused handshake that waits the longest backoff every time (a 4xx but 429). */
  protected isHandshakeRefusal(problem: P): boolean {
    const refused = problem as unknown as Partial<KalshiHandshakeRefused>;
    return refused.kind === 'handshake_refused' && refused.status! >= 400 && refused.status! < 500 && refused.status !== 429;
  }
}
