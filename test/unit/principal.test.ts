import { createHmac } from 'node:crypto';
import { signPrincipal, verifyPrincipal, type Principal } from '../../contract/principal';

const SECRET = 'internal-secret-0123456789abcdef0123';
const NOW = 1_800_000_000_000;

const principals: Principal[] = [
  { kind: 'api_key', workspaceId: 'ws_1', keyId: 'key_1', environment: 'live' },
  { kind: 'dashboard', workspaceId: 'ws_2', tokenId: 'dtok_1', environment: 'test', access: 'full' },
  { kind: 'user', workspaceId: 'ws_3', userId: 'usr_1', sessionId: 'ses_1', environment: 'live', access: 'read_only' },
  { kind: 'gateway' },
];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (header: string) => header.split('.') as [string, string];

describe('signed principals', () => {
  it.each(principals.map((p) => [p.kind, p]))('%s round-trips', (_kind, principal) => {
    expect(verifyPrincipal(signPrincipal(principal, SECRET, NOW), SECRET, NOW)).toEqual(principal);
  });

  it('is accepted within 60 s either way, refused when older or further ahead', () => {
    const header = signPrincipal(principals[0], SECRET, NOW);
    expect(verifyPrincipal(header, SECRET, NOW + 60_000)).toEqual(principals[0]);
    expect(verifyPrincipal(header, SECRET, NOW - 60_000)).toEqual(principals[0]);
    expect(verifyPrincipal(header, SECRET, NOW + 60_001)).toBeUndefined();
    expect(verifyPrincipal(header, SECRET, NOW - 60_001)).toBeUndefined();
  });

  it('a tampered payload is refused: another workspace or environment cannot be claimed', () => {
    const [, signature] = parts(signPrincipal(principals[0], SECRET, NOW));
    const forged = b64({ ...principals[0], workspaceId: 'ws_victim', iat: NOW });
    expect(verifyPrincipal(`${forged}.${signature}`, SECRET, NOW)).toBeUndefined();
    const test = b64({ ...principals[0], environment: 'test', iat: NOW });
    expect(verifyPrincipal(`${test}.${signature}`, SECRET, NOW)).toBeUndefined();
  });

  it('a tampered signature is refused', () => {
    const [payload, signature] = parts(signPrincipal(principals[0], SECRET, NOW));
    const flipped = Buffer.from(signature, 'base64url');
    flipped[0] ^= 1;
    expect(verifyPrincipal(`${payload}.${flipped.toString('base64url')}`, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal(`${payload}.${signature.slice(0, -2)}`, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal(`${payload}.`, SECRET, NOW)).toBeUndefined();
  });

  it('a principal signed with another secret is refused', () => {
    expect(verifyPrincipal(signPrincipal(principals[0], 'another-secret-0123456789abcdef01', NOW), SECRET, NOW)).toBeUndefined();
  });

  it('extra segments are refused', () => {
    const header = signPrincipal(principals[1], SECRET, NOW);
    expect(verifyPrincipal(`${header}.extra`, SECRET, NOW)).toBeUndefined();
    expect(verifyPrincipal(`${header}.`, SECRET, NOW)).toBeUndefined();
  });

  it('missing or malformed headers are refused', () => {
    for (const header of [undefined, null, '', '.', 'abc', 'a.b']) {
      expect(verifyPrincipal(header, SECRET, NOW)).toBeUndefined();
    }
  });

  it('a correctly signed payload without a numeric issue time is refused', () => {
    for (const body of [{ kind: 'gateway' }, { kind: 'gateway', iat: String(NOW) }]) {
      const payload = b64(body);
      const signature = createHmac('sha256', SECRET).update(payload).digest('base64url');
      expect(verifyPrincipal(`${payload}.${signature}`, SECRET, NOW)).toBeUndefined();
    }
  });
});
