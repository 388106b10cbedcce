/**
 * The Polymarket fake's wallets: collateral (pUSD) and outcome-token balances per funding wallet,
 * moved by every trade, and the API keys L1 auth creates or derives.
 *
 * Sources (github.com/Polymarket/clob-client-v2 at f3e1a05 unless said otherwise):
 * - `GET /balance-allowance?asset_type=COLLATERAL|CONDITIONAL&token_id=&signature_type=` (L2;
 *   src/client.ts getBalanceAllowance) answers `BalanceAllowanceResponse {balance, allowances}`
 *   (src/types/clob.ts). `balance` is in the token's 6-decimal base units (COLLATERAL_TOKEN_DECIMALS
 *   and CONDITIONAL_TOKEN_DECIMALS, src/config.ts), as clients divide it by 10^6. `allowances` is
 *   keyed by the spender contracts: the fake grants the V2 exchanges an unlimited allowance (it
 *   models no on-chain approvals).
 * - `POST /auth/api-key` (create) and `GET /auth/derive-api-key` (derive), both L1
 *   (src/client.ts createApiKey / deriveApiKey), answer `ApiKeyRaw {apiKey, secret, passphrase}`.
 *   One key per (address, nonce): create when one exists fails, derive when none exists fails (the
 *   client's `createOrDeriveApiKey` derives after a failed create). The failure strings are the ones
 *   clients report from the venue: "Could not create api key" and "Could not derive api key!".
 *   An L1 key trades from the address itself (EOA) unless a wallet was declared for that address
 *   (`declareWallet`): L1 auth says nothing of proxies or Safes.
 *
 * Not modelled: refusing an order for "not enough balance / allowance" (balances may go negative);
 * reserving the balance of open orders; deposits and withdrawals (only seeding). A redemption after
 * a market resolved (`redeem`, driven by the control API through dataApi.ts) burns the shares and
 * credits their payout.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { getContractConfig } from '@polymarket/clob-client-v2';
import { Decimal } from '../../core/domain/decimals';
import type { ClobAnswer } from './errors';
import type { PolymarketAccountKey } from './verify';

/** An API key and the account behind it (exchange.ts `FakeAccount`, named here so the two do not import each other). */
type FakeAccount = PolymarketAccountKey & { readonly apiKey: string; readonly secret: string; readonly passphrase: string };

const SCALE = new Decimal(1_000_000);
const UNLIMITED = (2n ** 256n - 1n).toString();

export interface FakeWallet {
  readonly ownerAddress: string;
  readonly signatureType: 0 | 1 | 2 | 3;
  readonly funderAddress: string;
}

export class FakeWallets {
  /** Base units, by funder address (lower case). */
  private readonly collateral = new Map<string, bigint>();
  /** Base units, by funder address then token id. */
  private readonly tokens = new Map<string, Map<string, bigint>>();
  private readonly declared = new Map<string, FakeWallet>();
  private readonly keyNonces = new Map<string, string>();
  /** What a wallet never seeded nor traded holds (0 unless a standalone fake gives every wallet some). */
  private startingCollateral = 0n;

  constructor(private readonly chainId: number) {}

  /** Every wallet not seeded yet starts with this pUSD balance (decimal dollars). */
  giveEveryWallet(dollars: string): void {
    this.startingCollateral = BigInt(new Decimal(dollars).times(SCALE).toFixed(0));
  }

  /** Sets a wallet's pUSD balance (decimal dollars). */
  seedCollateral(funderAddress: string, dollars: string): void {
    this.collateral.set(funderAddress.toLowerCase(), BigInt(new Decimal(dollars).times(SCALE).toFixed(0)));
  }

  /**
   * Adds pUSD and shares to a wallet out of nothing (decimal amounts): what the fake's market maker
   * holds, and what its counter-orders on the control path are backed with. Not a venue operation.
   */
  mint(funderAddress: string, amounts: { pusd?: string; tokenId?: string; shares?: string }): void {
    if (amounts.pusd !== undefined) this.addCollateral(funderAddress, BigInt(new Decimal(amounts.pusd).times(SCALE).toFixed(0)));
    if (amounts.tokenId !== undefined && amounts.shares !== undefined) {
      this.addToken(funderAddress, amounts.tokenId, BigInt(new Decimal(amounts.shares).times(SCALE).toFixed(0)));
    }
  }

  /** A wallet's pUSD and shares of `tokenId`, as decimal amounts. */
  holdings(funderAddress: string, tokenId: string): { pusd: Decimal; shares: Decimal } {
    const funder = funderAddress.toLowerCase();
    const pusd = this.collateral.get(funder) ?? this.startingCollateral;
    const shares = this.tokens.get(funder)?.get(tokenId) ?? 0n;
    return { pusd: new Decimal(pusd.toString()).div(SCALE), shares: new Decimal(shares.toString()).div(SCALE) };
  }

  /** What L1 auth creates keys for, for an owner trading through a proxy, Safe or 1271 wallet. */
  declareWallet(wallet: FakeWallet): void {
    this.declared.set(wallet.ownerAddress.toLowerCase(), wallet);
  }

  /** A trade moved `shares` of `tokenId` from the seller's wallet to the buyer's, and `pusd` the other way. */
  settle(buyer: string, seller: string, tokenId: string, shares: Decimal, pusd: Decimal): void {
    const units = BigInt(shares.times(SCALE).toFixed(0));
    const cash = BigInt(pusd.times(SCALE).toFixed(0));
    this.addCollateral(buyer, -cash);
    this.addCollateral(seller, cash);
    this.addToken(buyer, tokenId, units);
    this.addToken(seller, tokenId, -units);
  }

  /**
   * A redemption after resolution (the CTF's `redeemPositions`, the wallet owner's on-chain act):
   * `shares` of `tokenId` are burnt from the wallet and `payout` pUSD credited (decimal amounts).
   */
  redeem(funderAddress: string, tokenId: string, shares: Decimal, payout: Decimal): void {
    this.addToken(funderAddress, tokenId, -BigInt(shares.times(SCALE).toFixed(0)));
    this.addCollateral(funderAddress, BigInt(payout.times(SCALE).toFixed(0)));
  }

  balanceAllowance(account: FakeAccount, query: URLSearchParams): ClobAnswer {
    const assetType = query.get('asset_type');
    const tokenId = query.get('token_id');
    const funder = account.funderAddress.toLowerCase();
    let balance: bigint;
    if (assetType === 'COLLATERAL') balance = this.collateral.get(funder) ?? this.startingCollateral;
    else if (assetType === 'CONDITIONAL' && tokenId !== null && /^[0-9]{1,78}$/.test(tokenId)) balance = this.tokens.get(funder)?.get(tokenId) ?? 0n;
    else return { status: 400, body: { error: 'Invalid asset type' } };
    const contracts = getContractConfig(this.chainId);
    return { status: 200, body: { balance: balance.toString(), allowances: { [contracts.exchangeV2]: UNLIMITED, [contracts.negRiskExchangeV2]: UNLIMITED } } };
  }

  /** `POST /auth/api-key`: a new key for (address, nonce), or the venue's failure when one exists. */
  createApiKey(address: string, nonce: bigint, existing: (owner: string) => FakeAccount[], add: (account: FakeAccount) => void): ClobAnswer {
    if (this.keyFor(address, nonce, existing) !== undefined) return { status: 400, body: { error: 'Could not create api key' } };
    const wallet = this.declared.get(address.toLowerCase()) ?? { ownerAddress: address, signatureType: 0 as const, funderAddress: address };
    const account: FakeAccount = { apiKey: randomUUID(), secret: randomBytes(32).toString('base64url'), passphrase: randomBytes(32).toString('hex'), ...wallet, ownerAddress: address };
    add(account);
    this.keyNonces.set(account.apiKey, nonce.toString());
    return { status: 200, body: { apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase } };
  }

  /** `GET /auth/derive-api-key`: the key made for (address, nonce). */
  deriveApiKey(address: string, nonce: bigint, existing: (owner: string) => FakeAccount[]): ClobAnswer {
    const account = this.keyFor(address, nonce, existing);
    if (account === undefined) return { status: 400, body: { error: 'Could not derive api key!' } };
    return { status: 200, body: { apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase } };
  }

  /** Keys registered without L1 (the fake's options, the control API) count as nonce 0. */
  private keyFor(address: string, nonce: bigint, existing: (owner: string) => FakeAccount[]): FakeAccount | undefined {
    return existing(address).find((account) => (this.keyNonces.get(account.apiKey) ?? '0') === nonce.toString());
  }

  private addCollateral(funder: string, delta: bigint): void {
    const key = funder.toLowerCase();
    this.collateral.set(key, (this.collateral.get(key) ?? this.startingCollateral) + delta);
  }

  private addToken(funder: string, tokenId: string, delta: bigint): void {
    const key = funder.toLowerCase();
    const held = this.tokens.get(key) ?? new Map<string, bigint>();
    held.set(tokenId, (held.get(tokenId) ?? 0n) + delta);
    this.tokens.set(key, held);
  }
}
