/** Webhooks' pure rules (core/domain/webhooks.ts): which addresses a delivery refuses, the URL check, the retry schedule, the signature, a rotation's overlap. */
import { createHmac } from 'node:crypto';
import { checkEndpointUrl, checkPreviousSecretSeconds, isRefusedAddress, literalAddressOf, nextAttemptAt, signatureHeader } from '../../core/domain/webhooks';

describe('isRefusedAddress', () => {
  test.each([
    '127.0.0.1', '127.1.2.3', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1',
  ])('%s is refused', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  // IPv6 ranges that carry an IPv4 address (any of which may be a private one on the way), and the old site-local range.
  test.each([
    ['::127.0.0.1', 'IPv4-compatible'], ['::a00:1', 'IPv4-compatible'], ['::8.8.8.8', 'IPv4-compatible'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'], ['2002:c0a8:101::', '6to4 of 192.168.1.1'], ['2002:808:808::1', '6to4 of a public address'],
    ['64:ff9b::10.0.0.1', 'NAT64'], ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'], ['64:ff9b:1::a00:1', 'local-use NAT64'], ['64:ff9b:1:ffff::1', 'local-use NAT64'],
    ['fec0::1', 'site-local'], ['feff:ffff::1', 'site-local'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address: the whole prefix is special-purpose'],
  ])('%s is refused (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2003::1', '64:ff9b:2::1', 'fe00::1'])('%s is allowed', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  test('anything not an IP address is refused', () => {
    expect(isRefusedAddress('example.com')).toBe(true);
  });

  test('hosts written as numbers are addresses: the URL parser normalizes them before the check', () => {
    for (const url of ['http://0x7f.1/', 'http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://017700000001/', 'http://[::7f00:1]/']) {
      const literal = literalAddressOf(new URL(url));
      expect(literal !== null && isRefusedAddress(literal)).toBe(true);
    }
    expect(literalAddressOf(new URL('https://example.com/'))).toBeNull();
  });
});

describe('checkEndpointUrl', () => {
  test('http(s) only, no credentials or fragment', () => {
    expect(checkEndpointUrl('https://example.com/hooks?x=1')).toBe('https://example.com/hooks?x=1');
    for (const bad of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://u:p@example.com/', 'https://example.com/#x', '/relative']) {
      expect(() => checkEndpointUrl(bad)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'url' }));
    }
  });
});

describe('nextAttemptAt', () => {
  const schedule = { baseMs: 10_000, maxDelayMs: 3_600_000, windowMs: 3 * 86_400_000 };
  const since = new Date('2026-11-25T00:00:00Z');

  test('doubles from the base, jitter taking at most a quarter, capped', () => {
    const delay = (attempts: number, random: number) => nextAttemptAt(schedule, attempts, since, since, () => random)!.getTime() - since.getTime();
    expect([1, 2, 3, 4].map((n) => delay(n, 0))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(delay(3, 0.999)).toBeGreaterThan(30_000);
    expect(delay(30, 0)).toBe(3_600_000);
  });

  test('null once the next attempt would fall past the window after the event (given up)', () => {
    const late = new Date(since.getTime() + schedule.windowMs - 1000);
    expect(nextAttemptAt(schedule, 50, since, late, () => 0)).toBeNull();
    expect(nextAttemptAt(schedule, 1, since, late, () => 0)).toBeNull(); // 10 s later is past the window
    expect(nextAttemptAt(schedule, 1, since, new Date(since.getTime() + schedule.windowMs - 20_000), () => 0)).not.toBeNull();
  });

  test('about 80 attempts fit in 3 days with the defaults', () => {
    let now = since;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const next = nextAttemptAt(schedule, attempts, since, now, () => 0);
      if (!next) break;
      now = next;
    }
    expect(attempts).toBeGreaterThan(70);
    expect(attempts).toBeLessThan(90);
  });
});

describe('signatureHeader', () => {
  const mac = (secret: string) => createHmac('sha256', secret).update('1764041000.{"a":1}').digest('hex');

  test('one v1 per secret, in the order given (the new secret, then the previous one), after one t', () => {
    expect(signatureHeader(['whsec_new'], 1764041000, '{"a":1}')).toBe(`t=1764041000,v1=${mac('whsec_new')}`);
    expect(signatureHeader(['whsec_new', 'whsec_old'], 1764041000, '{"a":1}')).toBe(`t=1764041000,v1=${mac('whsec_new')},v1=${mac('whsec_old')}`);
  });
});

describe('checkPreviousSecretSeconds', () => {
  test('whole seconds from 0 to 7 days; a day when left out', () => {
    expect(checkPreviousSecretSeconds(undefined)).toBe(86_400);
    expect(checkPreviousSecretSeconds(null)).toBe(86_400);
    expect(checkPreviousSecretSeconds(0)).toBe(0);
    expect(checkPreviousSecretSeconds(604_800)).toBe(604_800);
    for (const bad of [-1, 604_801, 1.5, Number.NaN]) {
      expect(() => checkPreviousSecretSeconds(bad)).toThrow(expect.objectContaining({ code: 'invalid_request', param: 'expirePreviousInSeconds' }));
    }
  });
});
