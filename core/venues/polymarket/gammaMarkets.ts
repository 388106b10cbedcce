import { DomainError } from '../../domain/errors';
import { Decimal, formatDecimal, parseDecimalString } from '../../domain/decimals';
import { recordOf, type WireRecord } from '../wireRecords';
import { PolymarketPublicReads } from './publicReads';

/**
 * Polymarket's markets as Gamma lists them (docs/polymarket.md "Live catalog"; docs.polymarket.com
 * "List markets (keyset pagination)", as of 2026-11): `GET /markets/keyset`, page by page with
 * `after_cursor` = the previous answer's `next_cursor` (absent on the last page), at most 100
 * markets a page. The offset-paged `GET /markets` was sunset on 2026-05-01. Public, unauthenticated.
 *
 * Each market is read field by field, nothing trusted to have its documented type. `outcomes` and
 * `clobTokenIds` arrive as JSON-ENCODED STRINGS (`"[\"Yes\", \"No\"]"`; an array is accepted too):
 * a market whose string does not parse to an array of strings, or without a condition id, is
 * answered as malformed (with the reason), never thrown, so one bad market does not stop a listing.
 * `orderPriceMinTickSize` and `orderMinSize` arrive as JSON numbers and are read once into decimal
 * strings (`0.001` -> "0.001").
 */

/** A market of Gamma's listing, read into our terms. */
export interface GammaListedMarket {
  /** Lower-case bytes32 hex: the market's identity on the CLOB (one binary question). */
  readonly conditionId: string;
  readonly question: string;
  readonly description: string;
  readonly slug: string;
  /** The market's `category`, else its first event's; "" when neither is sent. */
  readonly category: string;
  /** `endDate`; null when absent or not a date. */
  readonly endDate: Date | null;
  readonly active: boolean;
  readonly closed: boolean;
  readonly acceptingOrders: boolean;
  readonly enableOrderBook: boolean;
  readonly negRisk: boolean;
  /** `outcomes`, parsed, in Gamma's order. */
  readonly outcomes: readonly string[];
  /** `clobTokenIds`, parsed, in the order of `outcomes`. */
  readonly clobTokenIds: readonly string[];
  /** `orderPriceMinTickSize` as a decimal string; null when absent. */
  readonly tickSize: string | null;
  /** `orderMinSize` (shares) as a decimal string; null when absent. */
  readonly minSize: string | null;
  /** `umaResolutionStatus` is `resolved`: the oracle has settled it. */
  readonly resolved: boolean;
  /** `volumeNum` (shares traded, a JSON number) as a decimal string; null when absent. */
  readonly volume: string | null;
  /** Its first event (`events[0]`: Gamma's id, title, category); null when Gamma sends none. */
  readonly event: { readonly id: string; readonly title: string; readonly category: string } | null;
}

/** One entry of a page: a market, or one Gamma sent that we cannot read (and why). */
export type GammaEntry = { readonly market: GammaListedMarket } | { readonly malformed: string; readonly conditionId: string | null };

export interface GammaMarketsQuery {
  /** Gamma's `closed` filter; Gamma itself applies `false` when it is not sent, so it is always sent. */
  readonly closed: boolean;
  /** Only these condition ids (`condition_ids=`, repeated; at most 100). */
  readonly conditionIds?: readonly string[];
  /** Markets per page, 1..100 (Gamma's bound); 100 by default. */
  readonly limit?: number;
}

export interface GammaMarketsOptions {
  readonly baseUrl: string;
  readonly timeoutMs: number;
}

export const GAMMA_MAX_PAGE = 100;
export const GAMMA_MAX_CONDITION_IDS = 100;

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;

/** A condition id as the catalog stores it (lower-case bytes32 hex), from one as a person writes it; null when it is not one. */
export function catalogConditionId(value: string): string | null {
  const id = value.trim();
  return CONDITION_ID.test(id) ? id.toLowerCase() : null;
}
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * A field Gamma sends as a JSON-encoded array of strings (or, defensively, as the array itself); null
 * when it is neither. An empty string is an empty array: Gamma sends `clobTokenIds: ""` for a market
 * whose tokens the CLOB has not created yet (NautilusTrader's adapter treats it as transient).
 */
export function jsonStringArray(value: unknown): string[] | null {
  let parsed: unknown = value;
  if (value === '') return [];
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? (parsed as string[]) : null;
}

/** A JSON number (or a decimal string) as a decimal string; null when absent or not a finite non-negative number. */
function decimalOf(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? formatDecimal(new Decimal(value)) : null;
  const parsed = parseDecimalString(value);
  return parsed === null || parsed.isNegative() ? null : formatDecimal(parsed);
}

function dateOf(value: unknown): Date | null {
  const text = str(value);
  if (text === null) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The market's first event as Gamma embeds it: `id` (a string or a number), `title` (else `slug`), `category`. */
function eventOf(m: WireRecord): GammaListedMarket['event'] {
  const event = recordOf(Array.isArray(m.events) ? m.events[0] : undefined);
  const id = typeof event?.id === 'number' && Number.isInteger(event.id) ? String(event.id) : str(event?.id);
  if (event === null || !id) return null;
  return { id, title: str(event.title) || str(event.slug) || id, category: str(event.category) ?? '' };
}

function categoryOf(m: WireRecord): string {
  const own = str(m.category);
  if (own) return own;
  const events = Array.isArray(m.events) ? m.events : [];
  return str(recordOf(events[0])?.category) ?? '';
}

/** One market of Gamma's answer, read. */
export function readGammaMarket(value: unknown): GammaEntry {
  const m = recordOf(value);
  const conditionId = str(m?.conditionId);
  if (m === null || conditionId === null || !CONDITION_ID.test(conditionId)) {
    return { malformed: 'no conditionId (bytes32 hex)', conditionId: conditionId || null };
  }
  const outcomes = jsonStringArray(m.outcomes);
  if (outcomes === null) return { malformed: 'outcomes is not a JSON-encoded array of strings', conditionId };
  const clobTokenIds = jsonStringArray(m.clobTokenIds);
  if (clobTokenIds === null) return { malformed: 'clobTokenIds is not a JSON-encoded array of strings', conditionId };
  return {
    market: {
      conditionId: conditionId.toLowerCase(),
      question: str(m.question) || conditionId,
      description: str(m.description) ?? '',
      slug: str(m.slug) ?? '',
      category: categoryOf(m),
      endDate: dateOf(m.endDate),
      active: m.active === true,
      closed: m.closed === true,
      acceptingOrders: m.acceptingOrders === true,
      enableOrderBook: m.enableOrderBook === true,
      negRisk: m.negRisk === true,
      outcomes,
      clobTokenIds,
      tickSize: decimalOf(m.orderPriceMinTickSize),
      minSize: decimalOf(m.orderMinSize),
      resolved: m.umaResolutionStatus === 'resolved',
      event: eventOf(m),
      volume: decimalOf(m.volumeNum),
    },
  };
}

export class GammaMarkets {
  private readonly reads: PolymarketPublicReads;

  constructor(options: GammaMarketsOptions) {
    this.reads = new PolymarketPublicReads({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, name: 'Polymarket Gamma' });
  }

  /**
   * `GET /markets/keyset` page by page. Throws `venue_unavailable` when a page cannot be read
   * (Gamma unreachable, slow, 5xx/429, a refusal, an answer without a `markets` array, or a cursor
   * it had already given): a listing is complete only when this ends without throwing.
   */
  async *markets(query: GammaMarketsQuery): AsyncGenerator<GammaEntry[]> {
    const limit = query.limit ?? GAMMA_MAX_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > GAMMA_MAX_PAGE) throw new RangeError(`limit ${limit} must be 1..${GAMMA_MAX_PAGE}`);
    if ((query.conditionIds?.length ?? 0) > GAMMA_MAX_CONDITION_IDS) throw new RangeError(`at most ${GAMMA_MAX_CONDITION_IDS} condition ids a request`);
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const answer = await this.reads.get('/markets/keyset', {
        limit,
        closed: query.closed,
        condition_ids: query.conditionIds,
        after_cursor: cursor,
      });
      const body = recordOf(answer.body);
      if (answer.status !== 200) {
        const message = str(body?.error) ?? str(body?.message) ?? '';
        throw new DomainError('venue_unavailable', `Polymarket Gamma refused GET /markets/keyset (${answer.status}${message ? `: ${message.slice(0, 200)}` : ''}).`);
      }
      if (body === null || !Array.isArray(body.markets)) throw new DomainError('venue_unavailable', 'Polymarket Gamma answered GET /markets/keyset without a markets array.');
      yield body.markets.map(readGammaMarket);
      const next = str(body.next_cursor);
      if (next === null || next === '') return;
      if (seen.has(next)) throw new DomainError('venue_unavailable', 'Polymarket Gamma answered GET /markets/keyset with a cursor it had already given; paging stopped.');
      seen.add(next);
      cursor = next;
    }
  }

  async close(): Promise<void> {
    await this.reads.close();
  }
}
