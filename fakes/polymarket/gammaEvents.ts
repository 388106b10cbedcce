/**
 * Gamma's events on the Gamma fake (gamma.ts): a group of markets under one title, served with the
 * markets as Gamma serves them (and so with their live figures when the fake is linked to the CLOB
 * fake, gammaStats.ts).
 *
 * Routes (docs.polymarket.com Gamma "List events", "Get event by id", "Get event by slug";
 * polyoxide docs/specs/gamma/events.md, the mirror of Gamma's openapi of 2026):
 * - `GET /events`: a bare JSON ARRAY of events, offset paged: `limit`, `offset`, `id` (repeated),
 *   `slug` (repeated), `closed`, `active`, `archived`, `include_markets`. Omitting `include_markets`
 *   is the same as `true`; `false` leaves the `markets` KEY out (not `[]`) (polyoxide gamma/OBSERVED.md,
 *   probed 2026-09-23). Other filters and `order` are accepted and not applied; events come in id
 *   order. Defaults where nothing was found: `limit` 20 (capped at 500), no `closed` filter.
 * - `GET /events/{id}`: one event; a non-numeric id answers 422 `{"type": "validation error",
 *   "error": "id is invalid"}`, an unknown one 404 `{"type": "not found error", "error": "id not found"}`
 *   (Gamma's error bodies as clients record them for `/markets/{id}`, 2026-08).
 * - `GET /events/slug/{slug}`: one event; unknown: 404 `{"type": "not found error", "error": "slug not found"}`.
 * - a malformed boolean or number in the query: 422 `{"type": "validation error", "error": "..."}`.
 *
 * The event object (NautilusTrader's captured test_data/gamma_event.json, 2026): `id` (numeric, a
 * string), `ticker`, `slug`, `title`, `description`, `resolutionSource`, `startDate`, `creationDate`,
 * `endDate`, `image`, `icon`, `active`, `closed`, `archived`, `new`, `featured`, `restricted`,
 * `liquidity`, `volume`, `openInterest` (numbers), `volume24hr`, `volume1wk`, `volume1mo`,
 * `volume1yr`, `enableOrderBook`, `liquidityClob`, `negRisk`, `commentCount`, `markets`, `tags`,
 * `cyom`. The fake's figures are the sums of its markets'; `closed` is true once every market of the
 * event is closed. `openInterest` is 0 and `tags` empty (not modelled).
 */
import type { GammaMarketRecord } from './gammaRecords';

export interface GammaEventSeed {
  /** Gamma's numeric event id (a string on the wire); given one by the fake when absent. */
  readonly id?: string;
  readonly title: string;
  readonly slug?: string;
  readonly ticker?: string;
  readonly description?: string;
  /** The markets of the event, by condition id (markets the Gamma fake lists). */
  readonly conditionIds: readonly string[];
  readonly negRisk?: boolean;
  readonly startDate?: string;
  readonly endDate?: string;
}

/** An event as the fake keeps it: Gamma's fields (free-form) and the condition ids of its markets. */
export interface GammaEventRecord {
  readonly id: string;
  readonly slug: string;
  readonly conditionIds: readonly string[];
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface GammaAnswer {
  readonly status: number;
  readonly body: unknown;
}

const validation = (error: string): GammaAnswer => ({ status: 422, body: { type: 'validation error', error } });
const notFound = (error: string): GammaAnswer => ({ status: 404, body: { type: 'not found error', error } });

const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The event's own fields (markets and figures are added when served). */
export function gammaEventFields(seed: GammaEventSeed): Record<string, unknown> {
  const slug = seed.slug ?? slugOf(seed.title);
  return {
    ticker: seed.ticker ?? slug,
    slug,
    title: seed.title,
    description: seed.description ?? '',
    resolutionSource: '',
    startDate: seed.startDate ?? '2026-01-05T18:35:56.805Z',
    creationDate: seed.startDate ?? '2026-01-05T18:35:56.805Z',
    endDate: seed.endDate ?? '2026-12-31T12:00:00Z',
    image: '',
    icon: '',
    archived: false,
    new: false,
    featured: false,
    restricted: true,
    enableOrderBook: true,
    negRisk: seed.negRisk ?? false,
    commentCount: 0,
    cyom: false,
  };
}

/** What the events routes need of the Gamma fake. */
export interface GammaEventsContext {
  events(): readonly GammaEventRecord[];
  /** The market as Gamma serves it now, or undefined when it does not list it. */
  servedMarket(conditionId: string): GammaMarketRecord | undefined;
}

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'string' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : 0);
const sum = (markets: readonly GammaMarketRecord[], read: (m: GammaMarketRecord) => unknown) => Number(markets.reduce((s, m) => s + numberOf(read(m)), 0).toFixed(6));

/** An event as served: its fields, its markets' figures, and its markets unless left out. */
export function servedEvent(context: GammaEventsContext, event: GammaEventRecord, includeMarkets = true): Record<string, unknown> {
  const markets = event.conditionIds.flatMap((c) => {
    const market = context.servedMarket(c);
    return market === undefined ? [] : [market];
  });
  const f = event.fields;
  return {
    id: event.id,
    ticker: f.ticker,
    slug: event.slug,
    title: f.title,
    description: f.description,
    resolutionSource: f.resolutionSource,
    startDate: f.startDate,
    creationDate: f.creationDate,
    endDate: f.endDate,
    image: f.image,
    icon: f.icon,
    active: true,
    closed: markets.length > 0 && markets.every((m) => m.closed === true),
    archived: f.archived,
    new: f.new,
    featured: f.featured,
    restricted: f.restricted,
    liquidity: sum(markets, (m) => m.liquidityNum ?? m.liquidity),
    volume: sum(markets, (m) => m.volumeNum ?? m.volume),
    openInterest: 0,
    volume24hr: sum(markets, (m) => m.volume24hr),
    volume1wk: sum(markets, (m) => m.volume1wk),
    volume1mo: sum(markets, (m) => m.volume1mo),
    volume1yr: sum(markets, (m) => m.volume1yr),
    enableOrderBook: f.enableOrderBook,
    liquidityClob: sum(markets, (m) => m.liquidityClob),
    negRisk: f.negRisk,
    commentCount: f.commentCount,
    ...(includeMarkets ? { markets } : {}),
    tags: [],
    cyom: f.cyom,
  };
}

function booleanParam(query: URLSearchParams, name: string): boolean | null | 'bad' {
  const value = query.get(name);
  if (value === null) return null;
  if (value === 'true' || value === 'false') return value === 'true';
  return 'bad';
}

/** `GET /events`. */
export function listEvents(context: GammaEventsContext, query: URLSearchParams): GammaAnswer {
  const limitText = query.get('limit');
  const offsetText = query.get('offset');
  if ((limitText !== null && !/^\d+$/.test(limitText)) || (offsetText !== null && !/^\d+$/.test(offsetText))) return validation('limit and offset must be whole numbers');
  const limit = Math.min(limitText === null ? 20 : Number(limitText), 500);
  const offset = offsetText === null ? 0 : Number(offsetText);
  const flags = { closed: booleanParam(query, 'closed'), active: booleanParam(query, 'active'), archived: booleanParam(query, 'archived'), include: booleanParam(query, 'include_markets') };
  if (Object.values(flags).includes('bad')) return validation('closed, active, archived and include_markets must be true or false');
  const ids = query.getAll('id').flatMap((v) => v.split(',')).filter((v) => v !== '');
  if (ids.some((id) => !/^\d+$/.test(id))) return validation('id is invalid');
  const slugs = query.getAll('slug').flatMap((v) => v.split(',')).filter((v) => v !== '');
  const served = context
    .events()
    .filter((e) => (ids.length === 0 || ids.includes(e.id)) && (slugs.length === 0 || slugs.includes(e.slug)))
    .map((e) => servedEvent(context, e, flags.include !== false))
    .filter((e) => (flags.closed === null || e.closed === flags.closed) && (flags.active === null || e.active === flags.active) && (flags.archived === null || e.archived === flags.archived));
  return { status: 200, body: served.slice(offset, offset + limit) };
}

/** `GET /events/{id}` and `GET /events/slug/{slug}`. */
export function oneEvent(context: GammaEventsContext, by: 'id' | 'slug', value: string): GammaAnswer {
  if (by === 'id' && !/^\d+$/.test(value)) return validation('id is invalid');
  const event = context.events().find((e) => (by === 'id' ? e.id === value : e.slug === value));
  if (event === undefined) return notFound(by === 'id' ? 'id not found' : 'slug not found');
  return { status: 200, body: servedEvent(context, event) };
}
