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
import type { FakeAccount } from '../../fakes/polymarket/exchange';
import { defaultTokens } from '../../fakes/polymarket/markets';

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
