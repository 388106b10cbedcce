/**
 * Runs the Polymarket fakes standalone (docs/polymarket-fake.md): the CLOB V2 fake (REST with its
 * public market data, the user WebSocket channel, the market channel with the books' messages and
 * `market_resolved`, heartbeats, settlement, the Data API under /data-api, its control API under
 * /_fake/) and the Gamma fake listing the same markets (and an event for each) with their live
 * figures, following their resolution, so that a core pointed at both syncs them into its live
 * catalog and trades them:
 *
 *   npx tsx fakes/polymarket/start.ts
 *
 * Environment:
 *   POLYMARKET_FAKE_HOST         default 127.0.0.1
 *   POLYMARKET_FAKE_PORT         the CLOB fake, default 8788 (0 picks a free port)
 *   POLYMARKET_GAMMA_FAKE_PORT   the Gamma fake, default 8789 (0 picks a free port)
 *   POLYMARKET_FAKE_CHAIN_ID     80002 (Amoy, default) or 137: the chain orders must be signed for
 *   POLYMARKET_FAKE_COLLATERAL   pUSD every wallet starts with (default 1000; balances are kept,
 *                                not enforced)
 *   POLYMARKET_FAKE_SEED_BOOKS   true (default) | false: every token's book starts with the fake
 *                                market maker's resting bids and asks around the token's mid
 *                                (marketMaker.ts); the Gamma fake's outcome prices are those mids
 *   POLYMARKET_FAKE_MARKET_DATA  true (default) | false: the market channel publishes the books
 *                                (initial dump, price_change, last_trade_price, book...) and
 *                                Gamma's markets carry the books' and trades' figures (server.ts
 *                                `marketData`); Gamma lists one event per market
 *
 * No account is configured: a wallet key attached to a subaccount creates its API key at the fake
 * with L1 auth (`POST /auth/api-key`), as on the venue. The fake never sees a private key.
 */
import { Chain } from '@polymarket/clob-client-v2';
import { Decimal } from '../../core/domain/decimals';
import { gammaMarket, GammaFake } from './gamma';
import { defaultTokens, type TokenSeed } from './markets';
import { PolymarketFake } from './server';

const QUESTIONS: Record<string, string> = {
  [`0x${'5e'.repeat(32)}`]: 'Will the Fed cut rates at its next meeting?',
  [`0x${'a7'.repeat(32)}`]: 'Will the incumbent win the election?',
};

/** One Gamma market per condition of the CLOB fake's tokens, with its Yes and No token (and, with seeded books, their mids as outcome prices). */
function gammaMarketsOf(tokens: readonly TokenSeed[], withMids: boolean) {
  const conditions = [...new Set(tokens.map((token) => token.conditionId))];
  return conditions.flatMap((conditionId) => {
    const yes = tokens.find((token) => token.conditionId === conditionId && token.outcome === 'Yes');
    const no = tokens.find((token) => token.conditionId === conditionId && token.outcome === 'No');
    if (yes === undefined || no === undefined) return [];
    return [
      gammaMarket({
        conditionId,
        question: QUESTIONS[conditionId] ?? `Market ${conditionId.slice(0, 10)}`,
        yesTokenId: yes.tokenId,
        noTokenId: no.tokenId,
        tickSize: Number(yes.tickSize),
        minSize: Number(yes.minOrderSize),
        negRisk: yes.negRisk,
        ...(withMids && yes.mid !== undefined && no.mid !== undefined ? { prices: [yes.mid, no.mid] as const } : {}),
      }),
    ];
  });
}

function flagFromEnv(name: string): boolean {
  const value = (process.env[name] ?? 'true').trim().toLowerCase();
  if (value === 'true' || value === '1' || value === '') return true;
  if (value === 'false' || value === '0') return false;
  throw new Error(`${name} must be true or false, got ${process.env[name]}`);
}

async function main(): Promise<void> {
  const host = process.env.POLYMARKET_FAKE_HOST ?? '127.0.0.1';
  const chainId = process.env.POLYMARKET_FAKE_CHAIN_ID === '137' ? Chain.POLYGON : Chain.AMOY;
  const collateral = new Decimal(process.env.POLYMARKET_FAKE_COLLATERAL ?? '1000').toFixed();
  const seed = flagFromEnv('POLYMARKET_FAKE_SEED_BOOKS');
  const marketData = flagFromEnv('POLYMARKET_FAKE_MARKET_DATA');
  const tokens = defaultTokens();
  const clob = await PolymarketFake.start({ host, port: Number(process.env.POLYMARKET_FAKE_PORT ?? 8788), chainId, tokens, controlApi: true, seedBooks: seed, marketData });
  clob.exchange.wallets.giveEveryWallet(collateral);
  const gamma = await GammaFake.start({ host, port: Number(process.env.POLYMARKET_GAMMA_FAKE_PORT ?? 8789), markets: gammaMarketsOf(tokens, seed) });
  clob.linkGamma(gamma);
  for (const [conditionId, question] of Object.entries(QUESTIONS)) {
    clob.describeMarket(conditionId, { question });
    if (marketData && gamma.market(conditionId) !== undefined) gamma.addEvent({ title: question, conditionIds: [conditionId] });
  }
  process.stdout.write(
    `Polymarket fake (chain ${chainId}) CLOB ${clob.baseUrl}  user channel ${clob.userChannelUrl}  control ${clob.baseUrl}/_fake/  Gamma ${gamma.baseUrl}  Data API ${clob.dataApiUrl}  market channel ${clob.marketChannelUrl}\n`,
  );
  const seeded = clob.exchange.allOrders().filter((order) => order.apiKey === clob.marketMaker && order.status === 'LIVE').length;
  process.stdout.write(
    seeded > 0
      ? `Books seeded: ${seeded} resting orders of the market maker (API key ${clob.marketMaker}) (POLYMARKET_FAKE_SEED_BOOKS=false for empty books)\n`
      : 'Books empty (POLYMARKET_FAKE_SEED_BOOKS=false)\n',
  );
  const stop = (): void => {
    void Promise.all([clob.close(), gamma.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Polymarket fake failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
