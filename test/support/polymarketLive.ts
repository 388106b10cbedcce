/**
 * Polymarket (CLOB V2) against its fake (docs/polymarket-fake.md): traders with keys made at run
 * time, the market rows the Gamma catalog sync would write, and a maker who plays the other
 * participants by posting signed orders as the official client does (signing.ts over
 * @polymarket/clob-client-v2; the body is the client's orderToJsonV2).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Db } from '../../core/db/prismaClient';
import { newId } from '../../core/domain/ids';
import type { PolymarketMarketTerms } from '../../core/venues/polymarket/orderWire';
import { PolymarketSession } from '../../core/venues/polymarket/session';
import { Chain, OrderType, polymarketOrderPayload, polymarketSigning, SignatureTypeV2, type TickSize } from '../../core/venues/polymarket/signing';
import type { Logger } from '../../core/support/logger';
import type { FakeAccount } from '../../fakes/polymarket/exchange';
import { defaultTokens } from '../../fakes/polymarket/markets';
import { PolymarketFake, type PolymarketFakeOptions } from '../../fakes/polymarket/server';
import { testConfig } from './env';
import { call } from './http';
import { newKek, newLiveTrader, type LiveTrader } from './kalshiLive';
import { ownDatabase } from './ownDatabase';
import { startStack, type Stack } from './stack';

const [FED_YES, FED_NO] = defaultTokens();

/** The fake's default binary market (0.01 tick, 5-share minimum), as our catalog holds it. */
export const PM_FED: PolymarketMarketTerms = { venueMarketId: FED_YES!.conditionId, yesTokenId: FED_YES!.tokenId, noTokenId: FED_NO!.tokenId, negRisk: false, tickSize: '0.01', minSize: '5' };

export interface PolymarketTrader {
  readonly privateKey: `0x${string}`;
  readonly address: `0x${string}`;
  /** The fake's record of its API key (when registered up front). */
  readonly account: FakeAccount;
}

export function newPolymarketTrader(collateral = '1000'): PolymarketTrader {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;
  return {
    privateKey,
    address,
    account: { apiKey: randomUUID(), secret: randomBytes(32).toString('base64url'), passphrase: randomBytes(32).toString('hex'), ownerAddress: address, signatureType: 0, funderAddress: address, collateral },
  };
}

/** The live catalog row of a Polymarket market (what the Gamma sync writes): condition id, tokens, tick, neg-risk. */
export async function insertLivePolymarketMarket(db: Db, market: PolymarketMarketTerms, title = 'Will the Fed cut in December? (Polymarket)'): Promise<string> {
  const row = await db.market.create({
    data: {
      id: newId('market'), environment: 'live', venue: 'polymarket', venueMarketId: market.venueMarketId, title, category: 'economics',
      tickSize: market.tickSize, minSize: market.minSize, yesTokenId: market.yesTokenId, noTokenId: market.noTokenId, negRisk: market.negRisk,
    },
  });
  return row.id;
}

/** Another participant: posts GTC limit orders on a token with its own key, as the official client would. */
export class PolymarketMaker {
  private readonly session: PolymarketSession;

  constructor(baseUrl: string, private readonly trader: PolymarketTrader) {
    const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: trader.address, privateKey: trader.privateKey });
    this.session = new PolymarketSession({ baseUrl, signing, timeoutMs: 2000, creds: { key: trader.account.apiKey, secret: trader.account.secret, passphrase: trader.account.passphrase } });
  }

  /** Posts; answers the venue's status and body. */
  async post(order: { tokenId: string; side: 'BUY' | 'SELL'; price: string; size: string; tickSize?: TickSize }): Promise<{ kind: string; body?: unknown }> {
    const signed = await this.session.signing.signLimitOrder({ tickSize: '0.01', negRisk: false, ...order });
    const outcome = await this.session.request('POST', '/order', { body: polymarketOrderPayload(signed, this.trader.account.apiKey, OrderType.GTC), write: true });
    return outcome.kind === 'answered' ? { kind: outcome.kind, body: outcome.body } : { kind: outcome.kind };
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/** One live trader on the Polymarket fake through the whole service (`startPolymarketLive`). */
export interface PolymarketLive {
  readonly fake: PolymarketFake;
  readonly stack: Stack;
  readonly trader: LiveTrader;
  /** Our id of the fake's FED market (PM_FED), inserted as the catalog sync would. */
  readonly fed: string;
  /** A live subaccount with `wallet`'s key attached alone (its API key is derived at the fake). */
  readonly subaccountId: string;
  /** The attach's answer, for what it shows of the credential. */
  readonly attachAnswer: unknown;
  /** The other participants, posting as `maker`. */
  readonly maker: PolymarketMaker;
  close(): Promise<void>;
}

/**
 * The fake (with `maker`'s account and `wallet` funded with 1,000 pUSD), one core and gateway on a
 * database of their own pointed at it (Amoy, 1 s timeouts, the live reconciler every 200 ms; `env`
 * adds or overrides settings), a live workspace, the FED market and a subaccount with `wallet`'s key.
 */
export async function startPolymarketLive(options: {
  database: string;
  name: string;
  wallet: PolymarketTrader;
  maker: PolymarketTrader;
  env?: Record<string, string>;
  fake?: PolymarketFakeOptions;
  logger?: Logger;
}): Promise<PolymarketLive> {
  const fake = await PolymarketFake.start({ ...options.fake, accounts: [options.maker.account, ...(options.fake?.accounts ?? [])] });
  fake.exchange.wallets.seedCollateral(options.wallet.address, '1000');
  const stack = await startStack(
    testConfig({
      DATABASE_URL: await ownDatabase(options.database),
      CREDENTIALS_KEK: newKek(),
      POLYMARKET_CLOB_URL: fake.baseUrl,
      POLYMARKET_DATA_API_URL: fake.dataApiUrl,
      POLYMARKET_CHAIN_ID: '80002',
      POLYMARKET_TIMEOUT_MS: '1000',
      LIVE_RECONCILER_ENABLED: 'true',
      LIVE_RECONCILE_INTERVAL_MS: '200',
      ...options.env,
    }),
    'single',
    1,
    { logger: options.logger },
  );
  const trader = await newLiveTrader(stack.core.db, stack.gateways[0]!, options.name);
  const fed = await insertLivePolymarketMarket(stack.core.db, PM_FED);
  const subaccountId = (await call(trader.base, 'POST', '/v1/subaccounts', { key: trader.live, body: { name: 'alice' } })).body.id as string;
  const attached = await call(trader.base, 'PUT', `/v1/subaccounts/${subaccountId}/credentials/polymarket`, {
    key: trader.dashboard,
    headers: { 'x-environment': 'live' },
    body: { private_key: options.wallet.privateKey },
  });
  if (attached.status !== 200) throw new Error(`attaching the wallet key: ${attached.status} ${JSON.stringify(attached.body)}`);
  const maker = new PolymarketMaker(fake.baseUrl, options.maker);
  return {
    fake, stack, trader, fed, subaccountId, attachAnswer: attached.body, maker,
    async close() {
      await maker.close();
      await stack.close();
      await fake.close();
    },
  };
}
