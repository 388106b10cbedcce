/**
 * How a trade settles on the Polymarket fake: the on-chain half of a match, played by a timer.
 *
 * Statuses and their meaning (the client's src/types/clob.ts `Trade.status`, github.com/Polymarket/
 * clob-client-v2 at f3e1a05; docs.polymarket.com "User Channel" trade message, which is emitted on
 * the match and on every later status): MATCHED (matched, sent to the operator for on-chain
 * submission), MINED (in a block, no finality yet; `transaction_hash` set), CONFIRMED (final and
 * successful, terminal), RETRYING (the transaction failed and is being resubmitted), FAILED
 * (failed and not retried, terminal). The transitions the fake allows are exchange.ts's `NEXT`.
 *
 * The fake's clock: a new trade goes MATCHED -> MINED after `minedAfterMs`, then MINED -> CONFIRMED
 * `confirmedAfterMs` later. `failNext(n)` sends the next n trades MATCHED -> RETRYING -> FAILED
 * instead (each step after `minedAfterMs`): a failure as the venue reports it, with the retry first.
 * A status set through the control API takes that trade off the clock (the test drives it).
 * Every transition is an exchange event (events.ts): the user channel pushes it and
 * `GET /data/trades` shows it.
 *
 * What a FAILED trade undoes (the fake's choice; Polymarket documents no reversal on the book): the
 * tokens and pUSD never moved on chain, so the fake's ledger of what each account received and paid
 * through trades (`positions`, read at `GET /_fake/positions`) is reversed. The orders' matched size
 * stays consumed and nothing is put back on the book: the venue does not re-post a maker order whose
 * settlement failed (not documented either way; a client must treat the trade, not the order, as
 * what failed).
 *
 * The same ledger is what the fake's Data API reports as positions (dataApi.ts): per API key and
 * token, the shares held and what was bought and sold (for `avgPrice`, `totalBought`,
 * `realizedPnl`). A redemption (`redeem`, the wallet owner's on-chain act after resolution) takes
 * the shares out and credits their payout in pUSD. Not to be confused with a market's resolution
 * (resolution.ts): this file is about trades settling on chain.
 */
import { Decimal } from '../../core/domain/decimals';
import { PRICE_TICKS_PER_DOLLAR, UNITS_PER_SHARE, type PolymarketEvent, type PolymarketExchange, type TradeRecord, type TradeStatus } from './exchange';

export interface SettlementOptions {
  /** MATCHED -> MINED (and MATCHED -> RETRYING -> FAILED steps), ms; default 1000. */
  readonly minedAfterMs?: number;
  /** MINED -> CONFIRMED, ms; default 1000. */
  readonly confirmedAfterMs?: number;
  /** Off: trades stay MATCHED until the control API moves them. Default on. */
  readonly automatic?: boolean;
}

/** What an account received and paid through trades that have not failed (decimal strings). */
export interface AccountPosition {
  readonly api_key: string;
  readonly pusd: string;
  readonly tokens: Record<string, string>;
}

/** What an API key bought and sold of one token through trades not FAILED, and what it redeemed. */
export interface TokenFlows {
  bought: Decimal;
  /** pUSD paid for what was bought. */
  cost: Decimal;
  sold: Decimal;
  /** pUSD received for what was sold. */
  proceeds: Decimal;
}

/** One API key's holding of one token (decimal shares and pUSD). */
export interface TokenHolding extends Readonly<TokenFlows> {
  readonly apiKey: string;
  readonly tokenId: string;
  readonly shares: Decimal;
}

interface Ledger {
  pusd: Decimal;
  readonly tokens: Map<string, Decimal>;
  readonly flows: Map<string, TokenFlows>;
}

export class Settlement {
  private minedAfterMs: number;
  private confirmedAfterMs: number;
  private automatic: boolean;
  private failing = 0;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ledgers = new Map<string, Ledger>();
  private moving = false;

  constructor(
    private readonly exchange: PolymarketExchange,
    options: SettlementOptions = {},
  ) {
    this.minedAfterMs = options.minedAfterMs ?? 1000;
    this.confirmedAfterMs = options.confirmedAfterMs ?? 1000;
    this.automatic = options.automatic ?? true;
    exchange.events.on((event) => this.onEvent(event));
  }

  configure(options: SettlementOptions): void {
    this.minedAfterMs = options.minedAfterMs ?? this.minedAfterMs;
    this.confirmedAfterMs = options.confirmedAfterMs ?? this.confirmedAfterMs;
    this.automatic = options.automatic ?? this.automatic;
  }

  /** The next `count` trades fail (RETRYING, then FAILED) instead of settling. */
  failNext(count: number): void {
    this.failing += count;
  }

  positions(): AccountPosition[] {
    return [...this.ledgers].map(([apiKey, ledger]) => ({
      api_key: apiKey,
      pusd: ledger.pusd.toString(),
      tokens: Object.fromEntries([...ledger.tokens].map(([token, shares]) => [token, shares.toString()])),
    }));
  }

  /** Every (API key, token) the ledger has seen, with the shares held and the flows behind them. */
  holdings(): TokenHolding[] {
    return [...this.ledgers].flatMap(([apiKey, ledger]) =>
      [...ledger.tokens].map(([tokenId, shares]) => ({ apiKey, tokenId, shares, ...(ledger.flows.get(tokenId) ?? zeroFlows()) })),
    );
  }

  /**
   * A redemption: the key's shares of `tokenId` (when it holds any) leave its ledger and their
   * payout, shares x `price`, is credited in pUSD. Answers what was redeemed (0 when nothing was held).
   */
  redeem(apiKey: string, tokenId: string, price: Decimal): { shares: Decimal; payout: Decimal } {
    const ledger = this.ledgers.get(apiKey);
    const held = ledger?.tokens.get(tokenId) ?? new Decimal(0);
    if (ledger === undefined || held.lte(0)) return { shares: new Decimal(0), payout: new Decimal(0) };
    const payout = held.times(price);
    ledger.tokens.set(tokenId, new Decimal(0));
    ledger.pusd = ledger.pusd.plus(payout);
    return { shares: held, payout };
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private onEvent(event: PolymarketEvent): void {
    if (event.kind !== 'trade') return;
    const { trade } = event;
    if (trade.status === 'MATCHED') return this.onMatched(trade); // a trade is MATCHED once, when made
    if (trade.status === 'FAILED') this.book(trade, -1);
    if (!this.moving) this.stop(trade.id);
  }

  private onMatched(trade: TradeRecord): void {
    this.book(trade, 1);
    if (!this.automatic) return;
    if (this.failing > 0) {
      this.failing -= 1;
      this.after(trade.id, this.minedAfterMs, 'RETRYING', () => this.after(trade.id, this.minedAfterMs, 'FAILED'));
      return;
    }
    this.after(trade.id, this.minedAfterMs, 'MINED', () => this.after(trade.id, this.confirmedAfterMs, 'CONFIRMED'));
  }

  private after(tradeId: string, ms: number, status: TradeStatus, then?: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(tradeId);
      this.moving = true;
      try {
        if (this.exchange.setTradeStatus(tradeId, status).ok) then?.();
      } finally {
        this.moving = false;
      }
    }, ms);
    timer.unref();
    this.timers.set(tradeId, timer);
  }

  private stop(tradeId: string): void {
    const timer = this.timers.get(tradeId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(tradeId);
  }

  /** Books a trade into both sides' ledgers (sign 1), or takes it out again (sign -1). */
  private book(trade: TradeRecord, sign: 1 | -1): void {
    const taker = trade.taker;
    this.move(taker.apiKey, taker.token.tokenId, taker.side, new Decimal(trade.units).div(UNITS_PER_SHARE), trade.notional, sign);
    for (const m of trade.makers) {
      const shares = new Decimal(m.units).div(UNITS_PER_SHARE);
      this.move(m.order.apiKey, m.order.token.tokenId, m.order.side, shares, shares.times(m.priceTicks).div(PRICE_TICKS_PER_DOLLAR), sign);
    }
  }

  private move(apiKey: string, tokenId: string, side: 'BUY' | 'SELL', shares: Decimal, pusd: Decimal, sign: 1 | -1): void {
    let ledger = this.ledgers.get(apiKey);
    if (ledger === undefined) {
      ledger = { pusd: new Decimal(0), tokens: new Map(), flows: new Map() };
      this.ledgers.set(apiKey, ledger);
    }
    const direction = side === 'BUY' ? sign : -sign;
    ledger.tokens.set(tokenId, (ledger.tokens.get(tokenId) ?? new Decimal(0)).plus(shares.times(direction)));
    ledger.pusd = ledger.pusd.minus(pusd.times(direction));
    const flows = ledger.flows.get(tokenId) ?? zeroFlows();
    if (side === 'BUY') {
      flows.bought = flows.bought.plus(shares.times(sign));
      flows.cost = flows.cost.plus(pusd.times(sign));
    } else {
      flows.sold = flows.sold.plus(shares.times(sign));
      flows.proceeds = flows.proceeds.plus(pusd.times(sign));
    }
    ledger.flows.set(tokenId, flows);
  }
}

function zeroFlows(): TokenFlows {
  return { bought: new Decimal(0), cost: new Decimal(0), sold: new Decimal(0), proceeds: new Decimal(0) };
}
