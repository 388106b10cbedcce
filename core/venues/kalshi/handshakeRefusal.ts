import type { IncomingMessage } from 'node:http';
import { readKalshiError } from './errors';

/** The most of a refused handshake's body read (Kalshi's error JSON is far smaller). */
const MAX_REFUSAL_BODY = 4096;

/**
 * A WebSocket handshake Kalshi answered with something other than 101 (a 401 for a bad key, a
 * 429): reads its body (at most 4 KiB) and hands the status and Kalshi's error code to `done`,
 * once, however the answer ends. Shared by the private stream and the book feed.
 */
export function readHandshakeRefusal(res: IncomingMessage, done: (status: number, venueCode: string) => void): void {
  let body = '';
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const status = res.statusCode ?? 0;
    done(status, readKalshiError(status, parsed).code);
  };
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    if (body.length < MAX_REFUSAL_BODY) body += chunk.slice(0, MAX_REFUSAL_BODY - body.length);
  });
  res.on('end', finish);
  res.on('error', finish);
  res.on('close', finish);
}
