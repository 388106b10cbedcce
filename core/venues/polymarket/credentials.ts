import { SignatureTypeV2 } from '@polymarket/clob-client-v2';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { SECP256K1_ORDER, type PolymarketCredential, type ShapeResult } from '../../domain/credentialShapes';
import { DomainError } from '../../domain/errors';

/**
 * Polymarket CLOB V2 credentials as a user pastes them, checked before anything is sealed.
 *
 * Shapes come from the official client `@polymarket/clob-client-v2` 1.1.0
 * (github.com/Polymarket/clob-client-v2 at f3e1a05, "chore: release v1.1.0"):
 * - signature types: src/order-utils/model/signatureTypeV2.ts, EOA 0, POLY_PROXY 1,
 *   POLY_GNOSIS_SAFE 2, POLY_1271 3;
 * - API credentials `{ key, secret, passphrase }` (src/types/clob.ts ApiKeyCreds), the secret being
 *   base64 or base64url (src/signing/hmac.ts decodes both);
 * - who signs and who pays (src/order-builder/helpers/createOrder.ts): the order's `maker` is the
 *   funder address, or the signer's own address when none is given; its `signer` is the key's
 *   address, except for POLY_1271 where both are the smart-contract wallet (the funder).
 *
 * Input (snake_case like the other venues' credentials):
 *   { private_key, signature_type?, funder_address?, api_key?, api_secret?, api_passphrase? }
 * - `private_key`: the wallet's secp256k1 key, 64 hex digits, `0x` optional.
 * - `signature_type`: 0..3 or its name; EOA when absent.
 * - `funder_address`: required for POLY_PROXY, POLY_GNOSIS_SAFE and POLY_1271 (the proxy, Safe or
 *   deposit wallet that holds the funds); for EOA it may only repeat the signer's own address, since
 *   the exchange refuses an EOA order whose maker is not its signer.
 * - API credentials: all three or none. When absent, the account derives them with L1 auth when it
 *   opens (polymarketAccounts.ts ensurePolymarketApiCreds: an EIP-712 `ClobAuth` signature by the
 *   same key).
 *
 * A "signer" that is not a pasted key (a KMS or hardware wallet) cannot arrive through the API; the
 * signing module takes any signer the official client accepts, so one can be plugged in there.
 *
 * What is shown to users is `polymarketCredentialView`: the signer and maker ADDRESSES, the
 * signature type and the API key id. The private key, the API secret and the passphrase never
 * leave the validated value, and no error message contains anything that was pasted.
 */

export const POLYMARKET_SIGNATURE_TYPES = {
  EOA: SignatureTypeV2.EOA,
  POLY_PROXY: SignatureTypeV2.POLY_PROXY,
  POLY_GNOSIS_SAFE: SignatureTypeV2.POLY_GNOSIS_SAFE,
  POLY_1271: SignatureTypeV2.POLY_1271,
} as const;
export type PolymarketSignatureTypeName = keyof typeof POLYMARKET_SIGNATURE_TYPES;

const TYPE_NAMES = Object.keys(POLYMARKET_SIGNATURE_TYPES) as PolymarketSignatureTypeName[];
const TYPE_HELP = 'signature_type must be 0 (EOA), 1 (POLY_PROXY), 2 (POLY_GNOSIS_SAFE) or 3 (POLY_1271)';

export interface PolymarketApiCreds {
  key: string;
  secret: string;
  passphrase: string;
}

/** The normalized credential: what would be sealed. Holds secrets: never log it or answer it. */
export interface PolymarketCredentialV2 {
  /** `0x` + 64 lower-case hex digits. */
  privateKey: `0x${string}`;
  signatureType: SignatureTypeV2;
  /** Checksummed; the address that holds the funds (the order's `maker`). */
  funderAddress: `0x${string}`;
  /** Absent until derived with L1 auth. */
  apiCreds?: PolymarketApiCreds;
}

/** What a user is shown of a Polymarket credential: addresses and names only. */
export interface PolymarketCredentialView {
  signer_address: string;
  maker_address: string;
  signature_type: PolymarketSignatureTypeName;
  api_key: string | null;
}

export type PolymarketCredentialResult =
  | { ok: true; value: PolymarketCredentialV2; signerAddress: `0x${string}`; view: PolymarketCredentialView; fingerprint: string }
  | { ok: false; param: string; message: string };

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A trimmed string (a pasted value often ends in a newline); `what` says what was expected. */
const trimmed = (name: string, what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required: ${what}.` : `${name} must be a string: ${what}.`) })
    .trim()
    .min(1, { error: `${name} must not be empty: ${what}.` })
    .max(1024, { error: `${name} is too long: ${what}.` });

const privateKey = trimmed('private_key', 'the wallet private key, 0x and 64 hex digits')
  .regex(/^(0x)?[0-9a-fA-F]{64}$/i, { error: 'private_key must be the wallet private key: 0x and 64 hex digits.' })
  .transform((value) => `0x${value.replace(/^0x/i, '').toLowerCase()}` as `0x${string}`)
  .refine((hex) => {
    const scalar = BigInt(hex);
    return scalar !== 0n && scalar < SECP256K1_ORDER;
  }, { error: 'private_key is not a valid secp256k1 private key (it must be non-zero and below the curve order).' });

/** Base64 or base64url, padded or not, at least 16 bytes: what the client's HMAC decodes (src/signing/hmac.ts). */
function isBase64Secret(value: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return false;
  const unpadded = value.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return false;
  return Buffer.from(unpadded, 'base64').length >= 16; // Node decodes both alphabets
}

const signatureType = z
  .union([z.number(), z.string().trim()], { error: `${TYPE_HELP}.` })
  .transform((raw, ctx) => {
    const byName = typeof raw === 'string' ? TYPE_NAMES.find((name) => name === raw.toUpperCase()) : undefined;
    if (byName) return POLYMARKET_SIGNATURE_TYPES[byName];
    const byNumber = Number(raw);
    if ((typeof raw === 'number' || /^[0-3]$/.test(raw)) && Object.values(POLYMARKET_SIGNATURE_TYPES).includes(byNumber)) {
      return byNumber as SignatureTypeV2;
    }
    ctx.addIssue({ code: 'custom', message: `${TYPE_HELP}.` });
    return z.NEVER;
  });

const inputSchema = z.strictObject(
  {
    private_key: privateKey,
    signature_type: signatureType.optional(),
    funder_address: trimmed('funder_address', 'the address holding the funds, 0x and 40 hex digits')
      .regex(ADDRESS, { error: 'funder_address must be an address: 0x and 40 hex digits.' })
      .optional(),
    api_key: trimmed('api_key', 'the CLOB API key, a UUID').regex(UUID, { error: 'api_key must be the CLOB API key, a UUID (8-4-4-4-12 hex digits).' }).optional(),
    api_secret: trimmed('api_secret', 'the CLOB API secret, base64')
      .refine(isBase64Secret, { error: 'api_secret must be the CLOB API secret: base64 or base64url, at least 16 bytes.' })
      .optional(),
    api_passphrase: trimmed('api_passphrase', 'the CLOB API passphrase')
      .refine((value) => !CONTROL.test(value), { error: 'api_passphrase must not contain control characters.' })
      .optional(),
  },
  { error: 'Polymarket credentials must be an object.' },
);

const FIELDS = Object.keys(inputSchema.shape);

/** The first problem, naming its field; never the value. Unknown field names are echoed only when they look like names. */
function firstProblem(error: z.ZodError): { ok: false; param: string; message: string } {
  // A misspelt field also makes the real one look missing: name the unknown one, the actual mistake.
  const issue = error.issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys[0] ?? '';
    const param = /^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(name) ? name : 'credentials';
    return { ok: false, param, message: `Unknown field in Polymarket credentials; the fields are ${FIELDS.join(', ')}.` };
  }
  const param = issue.path.length > 0 ? String(issue.path[0]) : 'credentials';
  return { ok: false, param, message: issue.message };
}

const fail = (param: string, message: string) => ({ ok: false as const, param, message });

/** Validates pasted Polymarket credentials and derives the signer address (never answering the key). */
export function validatePolymarketCredentialV2(input: unknown): PolymarketCredentialResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('credentials', `Polymarket credentials must be an object with ${FIELDS.join(', ')}.`);
  }
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) return firstProblem(parsed.error);
  const fields = parsed.data;

  const signerAddress = privateKeyToAccount(fields.private_key).address;
  const type = fields.signature_type ?? SignatureTypeV2.EOA;
  const typeName = TYPE_NAMES.find((name) => POLYMARKET_SIGNATURE_TYPES[name] === type)!;
  const funder = fields.funder_address ? getAddress(fields.funder_address.toLowerCase()) : undefined;

  if (type === SignatureTypeV2.EOA) {
    if (funder && funder !== signerAddress) {
      return fail('funder_address', 'funder_address must be the signer\'s own address, or be left out, with signature_type EOA: an EOA order\'s maker is its signer. A proxy or Safe wallet needs signature_type POLY_PROXY or POLY_GNOSIS_SAFE.');
    }
  } else if (!funder) {
    return fail('funder_address', `funder_address is required with signature_type ${typeName}: the ${typeName === 'POLY_1271' ? 'smart-contract wallet' : typeName === 'POLY_PROXY' ? 'Polymarket proxy wallet' : 'Safe'} that holds the funds.`);
  } else if (funder === signerAddress) {
    return fail('funder_address', `funder_address must be the ${typeName} wallet, not the signer's own address; use signature_type EOA to trade from the key's own address.`);
  }

  const credsGiven = [fields.api_key, fields.api_secret, fields.api_passphrase].filter((v) => v !== undefined).length;
  if (credsGiven !== 0 && credsGiven !== 3) {
    const missing = (['api_key', 'api_secret', 'api_passphrase'] as const).find((name) => fields[name] === undefined)!;
    return fail(missing, `${missing} is required when api_key, api_secret or api_passphrase is given: give all three, or none to derive them from the private key.`);
  }

  const value: PolymarketCredentialV2 = {
    privateKey: fields.private_key,
    signatureType: type,
    funderAddress: funder ?? signerAddress,
    ...(credsGiven === 3 ? { apiCreds: { key: fields.api_key!, secret: fields.api_secret!, passphrase: fields.api_passphrase! } } : {}),
  };
  const view = polymarketCredentialView(value, signerAddress);
  return { ok: true, value, signerAddress, view, fingerprint: signerAddress };
}

/**
 * Attach: the stored (sealed) form of pasted Polymarket credentials, normalized: the key as
 * `0x` + 64 lower-case hex, the signature type as its number, the funder checksummed (the signer's
 * own address for EOA), the API credentials when given. Its fingerprint is the signer address:
 * what identifies the wallet, and derivable by anyone who holds the key, never the key itself.
 */
export function polymarketCredentialShape(input: unknown): ShapeResult<PolymarketCredential> {
  const result = validatePolymarketCredentialV2(input);
  if (!result.ok) return result;
  const { value } = result;
  const stored: PolymarketCredential = {
    private_key: value.privateKey,
    signature_type: value.signatureType as PolymarketCredential['signature_type'],
    funder_address: value.funderAddress,
    ...(value.apiCreds ? { api_key: value.apiCreds.key, api_secret: value.apiCreds.secret, api_passphrase: value.apiCreds.passphrase } : {}),
  };
  return { ok: true, value: stored, fingerprint: result.fingerprint, environment: null };
}

/** A stored credential as the adapter uses it: validated again when opened (a row written by an older shape is refused, naming the field). */
export function polymarketCredentialFromStored(stored: PolymarketCredential): PolymarketCredentialV2 {
  const result = validatePolymarketCredentialV2(stored);
  if (!result.ok) throw new DomainError('venue_unavailable', `The stored Polymarket credential cannot trade (${result.param}): attach it again.`);
  return result.value;
}

/** What a user is shown: the addresses, never the key. `signerAddress` saves re-deriving it. */
export function polymarketCredentialView(value: PolymarketCredentialV2, signerAddress = privateKeyToAccount(value.privateKey).address): PolymarketCredentialView {
  return {
    signer_address: signerAddress,
    maker_address: value.funderAddress,
    signature_type: TYPE_NAMES.find((name) => POLYMARKET_SIGNATURE_TYPES[name] === value.signatureType)!,
    api_key: value.apiCreds?.key ?? null,
  };
}
