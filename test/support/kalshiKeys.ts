import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';

/**
 * One Kalshi API key made at run time: its id (a UUID, as Kalshi's are), the private key (as a
 * KeyObject for our signer, and as the PKCS#8 PEM a user pastes) and its public half, which is all
 * the fake is ever given.
 */
export interface KalshiKey {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly privateKeyPem: string;
  readonly publicKeyPem: string;
}

export function newKalshiKey(keyId: string = randomUUID()): KalshiKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    keyId,
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}
