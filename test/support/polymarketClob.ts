/**
 * A participant on the Polymarket CLOB fake (fakes/polymarket/server.ts) who rests orders there,
 * signed and posted as the official client does (our signing layer over @polymarket/clob-client-v2):
 * the other side of a live Polymarket book in tests.
 */
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { Chain, OrderType, polymarketOrderPayload, polymarketSigning, SignatureTypeV2 } from '../../core/venues/polymarket/signing';
import type { FakeAccount } from '../../fakes/polymarket/exchange';
import type { PolymarketFake } from '../../fakes/polymarket/server';

// A publicly known development key (Hardhat/Anvil account 0): never funded on a real chain.
const MAKER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;

export interface ClobMaker {
  /** Register it with the fake (`PolymarketFake.start({accounts: [maker.account]})`). */
  readonly account: FakeAccount;
  /** Rests a GTC order on `tokenId` (tick 0.01, not neg-risk); throws unless the fake accepts it. */
  rest(fake: PolymarketFake, order: { tokenId: string; side: 'BUY' | 'SELL'; price: string; size: string }): Promise<void>;
}

export function clobMaker(): ClobMaker {
  const signing = polymarketSigning({ chain: Chain.AMOY, signatureType: SignatureTypeV2.EOA, funderAddress: privateKeyToAccount(MAKER_KEY).address, privateKey: MAKER_KEY });
  const creds = { key: 'makerpm0-0000-4000-8000-000000000000', secret: randomBytes(32).toString('base64url'), passphrase: randomBytes(32).toString('hex') };
  return {
    account: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase, ownerAddress: signing.signerAddress, signatureType: 0, funderAddress: signing.signerAddress },
    async rest(fake, order) {
      const signed = await signing.signLimitOrder({ ...order, tickSize: '0.01', negRisk: false });
      const body = JSON.stringify(polymarketOrderPayload(signed, creds.key, OrderType.GTC));
      const headers = await signing.l2Headers(creds, { method: 'POST', requestPath: '/order', body });
      const response = await fetch(`${fake.baseUrl}/order`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      if (response.status !== 200) throw new Error(`the CLOB fake refused the maker's order: ${response.status} ${await response.text()}`);
    },
  };
}
