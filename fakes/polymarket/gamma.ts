/**
 * A fake of Polymarket's Gamma markets API (public, no authentication), a real node:http server
 * on loopback: the listing a catalog sync reads, `GET /markets/keyset`.
 *
 * Sources for paths, parameters and shapes:
 * - docs.polymarket.com "List markets (keyset pagination)" (api-spec/gamma-openapi.yaml,
 *   `get /markets/keyset`): `limit`, `after_cursor` (the previous answer's `next_cursor`), the filters
 *   of the legacy `GET /markets` (`closed`, `active`, `condition_ids`, ...), `offset` rejected; the
 *   answer `{markets: [...], next_cursor}`, `next_cursor` absent on the last page. The legacy
 *   offset-paged `GET /markets` (a bare array) was sunset on 2026-05-01 (announced in its
 *   deprecation/sunset HTTP headers), so the fake does not serve it.
 * - NautilusTrader's Polymarket adapter (crates/adapters/polymarket/src/http/gamma.rs: at most 100
 *   markets a page, `condition_ids=` repeated, at most 100 a request) and its captured Gamma
 *   markets (test_data/gamma_market_live.json, gamma_market_closed_binary_accepting_false.json):
 *   the market object, with `outcomes`, `outcomePrices` and `clobTokenIds` as JSON-ENCODED
 *   STRINGS, `orderPriceMinTickSize` and `orderMinSize` as JSON numbers, `closed` plus
 *   `umaResolutionStatus: "resolved"` and outcome prices `["1","0"]` once resolved.
 * - Gamma applies `closed=false` when `closed` is not sent (polyoxide-gamma's notes on the
 *   upstream default); the fake does the same.
 *
 * - A market's resolution, as Gamma shows it (NautilusTrader's captured closed markets,
 *   gamma_market_closed_binary_accepting_false.json and _accepting_true.json, 2026): `closed: true`
 *   with `closedTime` "2026-03-19 23:20:15+00" (a Postgres timestamp, not ISO), `active` still
 *   true, `umaResolutionStatus` "proposed" / "disputed" / "resolved" (values as Gamma readers test
 *   them), `umaResolutionStatuses` a JSON-encoded list of the statuses the UMA request went through
 *   (`'["proposed"]'` on a resolved market that was proposed once, `'["proposed", "disputed",
 *   "proposed"]'` after a dispute), `outcomePrices` the winner's `"1"` and the loser's `"0"` once
 *   resolved (`'["0.5", "0.5"]'` for a 50/50 split), `resolvedBy` the resolving adapter's address
 *   and `umaEndDate` (ISO, seconds) when the oracle settled. The fake writes its JSON-encoded lists
 *   without the space the venue puts after each comma (`'["1","0"]'`): clients parse them.
 *
 * - Events (`GET /events`, `/events/{id}`, `/events/slug/{slug}`): gammaEvents.ts; `addEvent`.
 * - Live figures (`volume24hr`, `volumeNum`, `liquidityNum`, `bestBid`, `bestAsk`, `lastTradePrice`,
 *   `oneDayPriceChange`, ...): laid over every market served while a source is linked
 *   (`linkMarketStats`; the CLOB fake links its books and trades, gammaStats.ts). Unlinked, a
 *   market is served as it was added.
 *
 * Markets are kept in the order of their numeric `id` (the keyset), so a market added later comes
 * after every page already served, as with a real keyset. Larger `limit`s are clamped to 100.
 * Tests drive the catalog through the methods (`addMarket`, `updateMarket`, `closeMarket`,
 * `proposeResolution`, `disputeResolution`, `resolveMarket`) and inject HTTP faults as on the other
 * fakes (fakes/faults.ts). The CLOB fake drives the same methods when linked to this Gamma
 * (server.ts `gamma` option, resolution.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { FaultPlan, type FaultRule } from '../faults';
import { LoopbackServer, sleep } from '../loopback';
import { gammaEventFields, listEvents, oneEvent, type GammaEventRecord, type GammaEventSeed, type GammaEventsContext } from './gammaEvents';
import type { GammaMarketStatsSource } from './gammaStats';
import type { GammaMarketRecord } from './gammaRecords';

/** A Gamma market object as the venue sends it: free-form JSON, so a test can send a malformed one too. */

export const GAMMA_MAX_PAGE = 100;

export interface GammaMarketSeed {
  /** Gamma's numeric market id (a string on the wire); given one by the fake when absent. */
  readonly id?: string;
  readonly conditionId: string;
  readonly question: string;
  readonly yesTokenId: string;
  readonly noTokenId: string;
  readonly description?: string;
  readonly slug?: string;
  readonly endDate?: string;
  /** JSON number, as Gamma sends it, e.g. 0.01. */
  readonly tickSize?: number;
  readonly minSize?: number;
  readonly negRisk?: boolean;
  readonly category?: string;
  readonly acceptingOrders?: boolean;
  readonly enableOrderBook?: boolean;
  readonly outcomes?: readonly string[];
  readonly prices?: readonly [string, string];
}

/** A binary market in Gamma's shape (the captured `gamma_market_live.json`'s fields, trimmed to those that matter). */
export function gammaMarket(seed: GammaMarketSeed, overrides: Record<string, unknown> = {}): GammaMarketRecord {
  const slug = seed.slug ?? seed.question.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return {
    id: seed.id ?? '',
    question: seed.question,
    conditionId: seed.conditionId,
    slug,
    resolutionSource: '',
    endDate: seed.endDate ?? '2026-12-31T12:00:00Z',
    startDate: '2026-01-05T18:35:56.805Z',
    description: seed.description ?? `This market will resolve to "Yes" if ${seed.question}`,
    outcomes: JSON.stringify(seed.outcomes ?? ['Yes', 'No']),
    outcomePrices: JSON.stringify(seed.prices ?? ['0.5', '0.5']),
    volume: '1000.5',
    active: true,
    closed: false,
    archived: false,
    restricted: true,
    questionID: `0x${'0'.repeat(63)}1`,
    enableOrderBook: seed.enableOrderBook ?? true,
    orderPriceMinTickSize: seed.tickSize ?? 0.01,
    orderMinSize: seed.minSize ?? 5,
    clobTokenIds: JSON.stringify([seed.yesTokenId, seed.noTokenId]),
    acceptingOrders: seed.acceptingOrders ?? true,
    negRisk: seed.negRisk ?? false,
    ...(seed.category === undefined ? {} : { category: seed.category }),
    umaResolutionStatuses: '[]',
    feesEnabled: false,
    ...overrides,
  } as GammaMarketRecord;
}

export interface GammaRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly status: number;
}

export interface GammaFakeOptions {
  readonly markets?: readonly GammaMarketRecord[];
  readonly host?: string;
  readonly port?: number;
  /** For `closedTime` and `umaEndDate` (default Date.now). */
  readonly clock?: () => number;
}

/** How a binary market resolves on Gamma: its first outcome (Yes), its second (No), or 50/50. */
export type GammaResolution = 'Yes' | 'No' | 'split';

/** The address Gamma names in `resolvedBy` (the one in NautilusTrader's captured resolved markets). */
export const GAMMA_RESOLVED_BY = '0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7';

/** `outcomePrices` of a resolution (or a proposal), JSON-encoded as Gamma sends it. */
export function gammaOutcomePrices(outcome: GammaResolution): string {
  return JSON.stringify(outcome === 'Yes' ? ['1', '0'] : outcome === 'No' ? ['0', '1'] : ['0.5', '0.5']);
}

/** Gamma's `closedTime`: "2026-03-19 23:20:15+00". */
const postgresTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00`;
/** Gamma's `umaEndDate`: "2026-03-19T23:20:15Z". */
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

const error = (status: number, message: string): Answer => ({ status, body: { error: message } });

const encodeCursor = (id: number) => Buffer.from(JSON.stringify({ id }), 'utf8').toString('base64url');
function decodeCursor(cursor: string): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { id?: unknown };
    return typeof parsed.id === 'number' && Number.isSafeInteger(parsed.id) ? parsed.id : null;
  } catch {
    return null;
  }
}

function parseStatuses(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

function booleanParam(query: URLSearchParams, name: string): boolean | null | 'bad' {
  const value = query.get(name);
  if (value === null) return null;
  if (value === 'true' || value === 'false') return value === 'true';
  return 'bad';
}

/** The fields a stats source gives; a served market never keeps stale ones of its seed. */
const STAT_FIELDS = ['bestBid', 'bestAsk', 'spread', 'lastTradePrice', 'oneDayPriceChange'];

export class GammaFake implements GammaEventsContext {
  readonly requests: GammaRequest[] = [];
  readonly faults = new FaultPlan();
  /** By numeric id: the keyset order. */
  private readonly byId = new Map<number, GammaMarketRecord>();
  private nextId = 500_000;
  /** Events by numeric id. */
  private readonly eventsById = new Map<number, GammaEventRecord>();
  private nextEventId = 20_000;
  private stats: GammaMarketStatsSource | null = null;
  private readonly http: LoopbackServer;
  private readonly clock: () => number;

  private constructor(options: GammaFakeOptions) {
    this.clock = options.clock ?? Date.now;
    for (const market of options.markets ?? []) this.addMarket(market);
    this.http = new LoopbackServer(createServer((req, res) => void this.onRequest(req, res)));
  }

  static async start(options: GammaFakeOptions = {}): Promise<GammaFake> {
    const fake = new GammaFake(options);
    await fake.http.listen(options.port, options.host);
    return fake;
  }

  /** What a client configures as Gamma's base URL (no trailing slash). */
  get baseUrl(): string {
    return this.http.origin;
  }

  /** Lists a market (after every market listed so far, unless its `id` says otherwise); answers its id. */
  addMarket(market: GammaMarketRecord): string {
    const id = market.id === '' || market.id === undefined ? ++this.nextId : Number(market.id);
    if (!Number.isSafeInteger(id)) throw new RangeError(`market id ${market.id} must be a whole number`);
    this.nextId = Math.max(this.nextId, id);
    this.byId.set(id, { ...market, id: String(id) });
    return String(id);
  }

  /** Changes fields of the market with this condition id (as Gamma would after an edit). */
  updateMarket(conditionId: string, fields: Record<string, unknown>): void {
    const [id, market] = this.find(conditionId);
    this.byId.set(id, { ...market, ...fields, id: market.id, conditionId: market.conditionId });
  }

  /** The market with this condition id as Gamma serves it, or undefined when not listed. */
  market(conditionId: string): GammaMarketRecord | undefined {
    for (const market of this.byId.values()) if (market.conditionId === conditionId) return this.served(market);
    return undefined;
  }

  /** Lists an event grouping markets (by condition id); answers its id. */
  addEvent(seed: GammaEventSeed): string {
    const id = seed.id === undefined || seed.id === '' ? ++this.nextEventId : Number(seed.id);
    if (!Number.isSafeInteger(id)) throw new RangeError(`event id ${seed.id} must be a whole number`);
    this.nextEventId = Math.max(this.nextEventId, id);
    const fields = gammaEventFields(seed);
    this.eventsById.set(id, { id: String(id), slug: fields.slug as string, conditionIds: [...seed.conditionIds], fields });
    return String(id);
  }

  /** The events, in id order (gammaEvents.ts). */
  events(): readonly GammaEventRecord[] {
    return [...this.eventsById.entries()].sort(([a], [b]) => a - b).map(([, e]) => e);
  }

  /** The market as served now (gammaEvents.ts). */
  servedMarket(conditionId: string): GammaMarketRecord | undefined {
    return this.market(conditionId);
  }

  /** Every market served from now on carries the source's live figures (null: none). */
  linkMarketStats(source: GammaMarketStatsSource | null): void {
    this.stats = source;
  }

  /** A market as Gamma serves it: its record, with the linked source's figures over it. */
  private served(market: GammaMarketRecord): GammaMarketRecord {
    if (this.stats === null) return market;
    const stats = this.stats.statsOf(market.conditionId, parseStatuses(market.clobTokenIds));
    if (Object.keys(stats).length === 0) return market;
    const base: Record<string, unknown> = { ...market };
    for (const field of STAT_FIELDS) delete base[field];
    return { ...base, ...stats, id: market.id, conditionId: market.conditionId } as GammaMarketRecord;
  }

  /** Trading ends: closed, no longer accepting orders (not resolved yet). Closing a closed market changes nothing. */
  closeMarket(conditionId: string, atMs: number = this.clock()): void {
    if (this.find(conditionId)[1].closed === true) return;
    this.updateMarket(conditionId, { closed: true, acceptingOrders: false, closedTime: postgresTime(atMs) });
  }

  /** An outcome is proposed to UMA: `umaResolutionStatus: "proposed"`, `outcomePrices` the proposed ones. */
  proposeResolution(conditionId: string, outcome: GammaResolution): void {
    this.updateMarket(conditionId, { umaResolutionStatus: 'proposed', umaResolutionStatuses: this.statusesWith(conditionId, 'proposed'), outcomePrices: gammaOutcomePrices(outcome) });
  }

  /** The proposal is disputed: `umaResolutionStatus: "disputed"` (the proposed prices stay). */
  disputeResolution(conditionId: string): void {
    this.updateMarket(conditionId, { umaResolutionStatus: 'disputed', umaResolutionStatuses: this.statusesWith(conditionId, 'disputed') });
  }

  /**
   * Resolved by the oracle: closed, `umaResolutionStatus: "resolved"`, the winner's price 1 (or
   * 0.5 each for a split), `resolvedBy`, `umaEndDate`. A market resolved without a proposal first
   * lists `'["proposed"]'` (a resolution is a proposal that stood).
   */
  resolveMarket(conditionId: string, winner: GammaResolution, atMs: number = this.clock()): void {
    this.closeMarket(conditionId, atMs);
    const [, market] = this.find(conditionId);
    const statuses = parseStatuses(market.umaResolutionStatuses);
    this.updateMarket(conditionId, {
      umaResolutionStatus: 'resolved',
      umaResolutionStatuses: JSON.stringify(statuses.length === 0 ? ['proposed'] : statuses),
      outcomePrices: gammaOutcomePrices(winner),
      resolvedBy: GAMMA_RESOLVED_BY,
      umaEndDate: isoSeconds(atMs),
    });
  }

  private statusesWith(conditionId: string, status: string): string {
    return JSON.stringify([...parseStatuses(this.find(conditionId)[1].umaResolutionStatuses), status]);
  }

  /** Gamma no longer serves the market at all. */
  removeMarket(conditionId: string): void {
    this.byId.delete(this.find(conditionId)[0]);
  }

  injectFault(rule: FaultRule): void {
    this.faults.inject(rule);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private find(conditionId: string): [number, GammaMarketRecord] {
    for (const entry of this.byId) if (entry[1].conditionId === conditionId) return entry;
    throw new RangeError(`the Gamma fake lists no market ${conditionId}`);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const reply = (answer: Answer) => {
      this.requests.push({ method, path: url.pathname, query: url.searchParams, status: answer.status });
      const json = JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    };
    const fault = this.faults.take(method, url.pathname);
    if (fault?.kind === 'server_error') return reply(error(fault.status, 'Internal Server Error'));
    if (fault?.kind === 'rate_limit') return reply(error(429, 'Too Many Requests'));
    if (fault?.kind === 'delay') await sleep(fault.ms);
    if (fault?.kind === 'accept_then_drop') {
      this.requests.push({ method, path: url.pathname, query: url.searchParams, status: 0 });
      req.socket.destroy();
      return;
    }
    if (method !== 'GET') return reply(error(404, 'Not Found'));
    const path = url.pathname;
    if (path === '/markets/keyset') return reply(this.keyset(url.searchParams));
    if (path === '/events') return reply(listEvents(this, url.searchParams));
    const bySlug = /^\/events\/slug\/([^/]+)$/.exec(path);
    if (bySlug) return reply(oneEvent(this, 'slug', decodeURIComponent(bySlug[1]!)));
    const byId = /^\/events\/([^/]+)$/.exec(path);
    if (byId) return reply(oneEvent(this, 'id', decodeURIComponent(byId[1]!)));
    return reply(error(404, 'Not Found'));
  }

  /** `GET /markets/keyset`. */
  private keyset(query: URLSearchParams): Answer {
    if (query.has('offset')) return error(400, 'offset is not supported on keyset endpoints; use after_cursor');
    const limitText = query.get('limit');
    const limit = limitText === null ? 20 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1) return error(400, `invalid limit: ${limitText}`);
    const closed = booleanParam(query, 'closed');
    const active = booleanParam(query, 'active');
    if (closed === 'bad' || active === 'bad') return error(400, 'closed and active must be true or false');
    const conditionIds = new Set(query.getAll('condition_ids').flatMap((v) => v.split(',')).filter((v) => v !== ''));
    const cursorText = query.get('after_cursor');
    const after = cursorText === null ? null : decodeCursor(cursorText);
    if (cursorText !== null && after === null) return error(400, 'invalid after_cursor');

    const matching = [...this.byId.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([id, m]) =>
        (after === null || id > after) &&
        m.closed === (closed ?? false) &&
        (active === null || m.active === active) &&
        (conditionIds.size === 0 || conditionIds.has(m.conditionId)));
    const page = matching.slice(0, Math.min(limit, GAMMA_MAX_PAGE));
    const more = matching.length > page.length;
    return { status: 200, body: { markets: page.map(([, m]) => this.served(m)), ...(more ? { next_cursor: encodeCursor(page[page.length - 1]![0]) } : {}) } };
  }
}
