import {
  API_KEY_FORMAT,
  DASHBOARD_TOKEN_FORMAT,
  displayParts,
  generateApiKeySecret,
  generateDashboardToken,
  sha256Hex,
} from '../../contract/secrets';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key secrets', () => {
  it.each([['test'], ['live']] as const)('%s keys: mk_%s_ and 40 base62 characters', (environment) => {
    const secret = generateApiKeySecret(environment);
    expect(secret.startsWith(`mk_${environment}_`)).toBe(true);
    expect(secret).toHaveLength(`mk_${environment}_`.length + 40);
    expect(secret).toMatch(API_KEY_FORMAT);
    expect(secret).not.toMatch(DASHBOARD_TOKEN_FORMAT);
  });

  it('are unique, and use the whole base62 alphabet', () => {
    const secrets = Array.from({ length: 2000 }, () => generateApiKeySecret('test'));
    expect(new Set(secrets).size).toBe(secrets.length);
    const seen = new Set(secrets.flatMap((s) => [...s.slice('mk_test_'.length)]));
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });

  it('the format accepts only the two environments and exactly 40 characters', () => {
    const body = 'A'.repeat(40);
    expect(`mk_test_${body}`).toMatch(API_KEY_FORMAT);
    expect(`mk_live_${body}`).toMatch(API_KEY_FORMAT);
    for (const bad of [`mk_prod_${body}`, `mk_test_${body}A`, `mk_test_${body.slice(1)}`, `mk_test_${body.slice(1)}-`, `sk_test_${body}`, ` mk_test_${body}`]) {
      expect(bad).not.toMatch(API_KEY_FORMAT);
    }
  });
});

describe('dashboard tokens', () => {
  it('mk_dash_ and 40 base62 characters, unique, never an API key', () => {
    const tokens = Array.from({ length: 200 }, () => generateDashboardToken());
    for (const token of tokens) {
      expect(token).toMatch(DASHBOARD_TOKEN_FORMAT);
      expect(token).toHaveLength(48);
      expect(token).not.toMatch(API_KEY_FORMAT);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});

describe('sha256Hex', () => {
  it('is SHA-256 in lower-case hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('displayParts: what a key list may show', () => {
  it('the prefix with 4 characters of the random part, and the last 4', () => {
    const secret = `mk_test_ABCD${'x'.repeat(32)}WXYZ`;
    expect(displayParts(secret)).toEqual({ prefix: 'mk_test_ABCD', last4: 'WXYZ' });
    expect(displayParts(`mk_live_1234${'y'.repeat(32)}5678`)).toEqual({ prefix: 'mk_live_1234', last4: '5678' });
    expect(displayParts(`mk_dash_abcd${'z'.repeat(32)}efgh`)).toEqual({ prefix: 'mk_dash_abcd', last4: 'efgh' });
  });

  it('shows at most 8 of the 40 random characters of a generated secret', () => {
    const secret = generateApiKeySecret('live');
    const { prefix, last4 } = displayParts(secret);
    expect(secret.startsWith(prefix)).toBe(true);
    expect(secret.endsWith(last4)).toBe(true);
    expect(prefix.length - 'mk_live_'.length + last4.length).toBe(8);
  });
});
