/**
 * Timestamps as Kalshi's Go servers write them in the market-data shapes: RFC 3339 with the
 * fraction of a second trimmed of trailing zeros (Go's `time.RFC3339Nano`). Recorded on demo:
 * public trades `"created_time":"2026-06-15T15:48:42.60323Z"` (trades__public_recorded.json,
 * 2026-06-15) and orderbook deltas `"ts":"2026-06-11T06:31:29.957081Z"`
 * (ws__orderbook_trade_noleg.jsonl, 2026-06-11), both XavierBriggs/Fortuna fixtures/kalshi.
 * The fake's clock has millisecond resolution, so at most 3 fraction digits appear.
 */

/** `2026-06-15T15:48:42.6Z` for ...42.600, `2026-06-15T15:48:42Z` for a whole second. */
export function goRfc3339(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-06-15T15:48:42.600Z
  const [whole, fraction] = iso.slice(0, -1).split('.');
  const trimmed = (fraction ?? '').replace(/0+$/, '');
  return trimmed === '' ? `${whole}Z` : `${whole}.${trimmed}Z`;
}

/** Whole unix seconds, as the deprecated `ts` fields carry them. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
