/**
 * A participant on the Polymarket CLOB fake (fakes/polymarket/server.ts) who rests orders there,
 * signed and posted as the official client does (polymarketTraders.ts): the other side of a live
 * Polymarket book in tests.
 */
import type { FakeAccount } from '../../fakes/polymarket/exchange';
import type { PolymarketFake } from '../../fakes/polymarket/server';
import { DEV_KEYS, place, trader } from './polymarketTraders';

export interface ClobMaker {
  /** Register it with the fake (`PolymarketFake.start({accounts: [maker.account]})`). */
  readonly account: FakeAccount;
  /** Rests a GTC order on `tokenId` (tick 0.01, not neg-risk); throws unless the fake accepts it. */
  rest(fake: PolymarketFake, order: { tokenId: string; side: 'BUY' | 'SELL'; price: string; size: string }): Promise<void>;
}

export function clobMaker(): ClobMaker {
  const maker = trader('makerpm0', DEV_KEYS.alice);
  return {
    account: maker.account,
    async rest(fake, order) {
      const reply = await place(fake, maker, order);
      if (reply.status !== 200) throw new Error(`the CLOB fake refused the maker's order: ${reply.status} ${JSON.stringify(reply.body)}`);
    },
  };
}
