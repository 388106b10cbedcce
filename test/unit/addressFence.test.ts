/** The webhook address fence (core/domain/addressFence.ts): the IANA special-purpose ranges, the IPv6 forms carrying an IPv4 address, what is not an address. */
import { isRefusedAddress, REFUSED_IPV4_RANGES, REFUSED_IPV6_RANGES } from '../../core/domain/addressFence';
import { isRefusedAddress as reexported } from '../../core/domain/webhooks';

/**
 * Each refused range, written out by hand (not derived from the module's list): its first and last
 * address, and the addresses just outside it that are public unicast (none where the neighbour is
 * itself refused, or is reserved or unassigned space rather than unicast a receiver could have).
 */
const RANGES: readonly (readonly [cidr: string, first: string, last: string, outside: readonly string[]])[] = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', ['1.0.0.0']],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', ['9.255.255.255', '11.0.0.0']],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', ['100.63.255.255', '100.128.0.0']],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', ['126.255.255.255', '128.0.0.0']],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', ['169.253.255.255', '169.255.0.0']],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', ['172.15.255.255', '172.32.0.0']],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', ['191.255.255.255', '192.0.1.0']],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', ['192.0.1.255', '192.0.3.0']],
  ['192.31.196.0/24', '192.31.196.0', '192.31.196.255', ['192.31.195.255', '192.31.197.0']],
  ['192.52.193.0/24', '192.52.193.0', '192.52.193.255', ['192.52.192.255', '192.52.194.0']],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', ['192.88.98.255', '192.88.100.0']],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', ['192.167.255.255', '192.169.0.0']],
  ['192.175.48.0/24', '192.175.48.0', '192.175.48.255', ['192.175.47.255', '192.175.49.0']],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', ['198.17.255.255', '198.20.0.0']],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', ['198.51.99.255', '198.51.101.0']],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', ['203.0.112.255', '203.0.114.0']],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', ['223.255.255.255']],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.255', []],
  ['255.255.255.255/32', '255.255.255.255', '255.255.255.255', []],

  ['::/128', '::', '0:0:0:0:0:0:0:0', []],
  ['::1/128', '::1', '0:0:0:0:0:0:0:1', []],
  ['::/96', '::', '::ffff:ffff', []],
  ['::ffff:0:0/96', '::ffff:0:0', '::ffff:ffff:ffff', []],
  ['::ffff:0:0:0/96', '::ffff:0:0:0', '::ffff:0:ffff:ffff', []],
  ['64:ff9b::/96', '64:ff9b::', '64:ff9b::ffff:ffff', []],
  ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', []],
  ['100::/64', '100::', '100::ffff:ffff:ffff:ffff', []],
  ['100:0:0:1::/64', '100:0:0:1::', '100::1:ffff:ffff:ffff:ffff', []],
  ['2001::/23', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::']],
  ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::']],
  ['2002::/16', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::']],
  ['2620:4f:8000::/48', '2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff', ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', '2620:4f:8001::']],
  ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::']],
  ['5f00::/16', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', []],
  ['fc00::/7', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', []],
  ['fe80::/10', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', []],
  ['fec0::/10', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', []],
  ['ff00::/8', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', []],
];

describe('the IANA special-purpose ranges', () => {
  test.each(RANGES)('%s: first %s and last %s refused, just outside allowed', (_cidr, first, last, outside) => {
    expect([first, last].map(isRefusedAddress)).toEqual([true, true]);
    expect(outside.map(isRefusedAddress)).toEqual(outside.map(() => false));
  });

  test('the fence refuses exactly the ranges written out above', () => {
    expect([...REFUSED_IPV4_RANGES, ...REFUSED_IPV6_RANGES].map((range) => range.cidr).sort()).toEqual(RANGES.map(([cidr]) => cidr).sort());
  });

  // Entries of the registries inside a range refused whole (192.0.0.0/24, 192.88.99.0/24, 2001::/23).
  test.each([
    ['192.0.0.0/29 IPv4 service continuity', '192.0.0.0', '192.0.0.7'], ['192.0.0.8/32 dummy', '192.0.0.8', '192.0.0.8'],
    ['192.0.0.9/32 PCP anycast', '192.0.0.9', '192.0.0.9'], ['192.0.0.10/32 TURN anycast', '192.0.0.10', '192.0.0.10'],
    ['192.0.0.170/32 NAT64 discovery', '192.0.0.170', '192.0.0.170'], ['192.0.0.171/32 NAT64 discovery', '192.0.0.171', '192.0.0.171'],
    ['192.88.99.2/32 6a44 relay', '192.88.99.2', '192.88.99.2'],
    ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:1::1/128 PCP anycast', '2001:1::1', '2001:1::1'], ['2001:1::2/128 TURN anycast', '2001:1::2', '2001:1::2'], ['2001:1::3/128 DNS-SD SRP anycast', '2001:1::3', '2001:1::3'],
    ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'], ['2001:3::/32 AMT', '2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:4:112::/48 AS112-v6', '2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'], ['2001:10::/28 ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:20::/28 ORCHIDv2', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'], ['2001:30::/28 DETs', '2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('%s: %s and %s refused', (_entry, first, last) => {
    expect([first, last].map(isRefusedAddress)).toEqual([true, true]);
  });
});

describe('IPv6 forms carrying an IPv4 address', () => {
  test.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'], ['::ffff:7f00:1', 'IPv4-mapped, hex'], ['::FFFF:7F00:1', 'IPv4-mapped, upper case'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped, written out'], ['0000:0000:0000:0000:0000:ffff:10.0.0.1', 'IPv4-mapped, leading zeros'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated, dotted'], ['::ffff:0:7f00:1', 'IPv4-translated, hex'], ['::ffff:0:c0a8:101', 'IPv4-translated 192.168.1.1'],
    ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted'], ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix, 169.254.169.254'],
    ['64:ff9b:1:7f00:0:100::', 'local-use NAT64 /48 embedding of 127.0.0.1'], ['64:ff9b:1::10.0.0.1', 'local-use NAT64, /96 embedding of 10.0.0.1'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'], ['2002:c0a8:101::', '6to4 of 192.168.1.1'], ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1 (obfuscated)'], ['2001:0:a00:1::1', 'Teredo, server 10.0.0.1'],
    ['::127.0.0.1', 'IPv4-compatible, dotted'], ['::7f00:1', 'IPv4-compatible, hex'], ['::a00:1', 'IPv4-compatible 10.0.0.1'], ['::169.254.169.254', 'IPv4-compatible 169.254.169.254'],
  ])('%s is refused (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  // The forms are refused whole: no need to find the IPv4 address inside in whatever spelling.
  test.each(['::ffff:8.8.8.8', '::ffff:808:808', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b:1::808:808', '2002:808:808::1', '2001:0:808:808::1', '::8.8.8.8'])(
    '%s is refused though its IPv4 address is public', (address) => {
      expect(isRefusedAddress(address)).toBe(true);
    },
  );

  test('an IPv4 address is judged as IPv4, not by the IPv6 forms that can carry it', () => {
    expect(['8.8.8.8', '0.0.255.255', '100.0.0.0'].map(isRefusedAddress)).toEqual([false, true, false]);
  });
});

describe('public addresses and what is not one', () => {
  test.each(['8.8.8.8', '1.1.1.1', '9.9.9.9', '151.101.1.69', '223.255.255.254', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888', '2620:fe::fe', '2A00:1450:4001:80B::200E'])(
    '%s is allowed', (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );

  test.each([
    ['fe80::1%eth0', 'link-local with a zone id'], ['fe80::1%25eth0', 'zone id, URL-escaped'], ['2606:4700:4700::1111%eth0', 'public with a zone id'], ['8.8.8.8%eth0', 'IPv4 with a zone id'],
    ['example.com', 'a name'], ['', 'empty'], [' 8.8.8.8', 'a space'], ['8.8.8.8:443', 'a port'], ['[2606:4700:4700::1111]', 'brackets'],
    ['08.8.8.8', 'a leading zero'], ['8.8.8', 'three parts'], ['256.1.1.1', 'an octet too big'], ['2606:4700:4700:1111', 'four groups'], ['1:2:3:4:5:6:7:8:9', 'nine groups'],
  ])('%s is refused (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  test('core/domain/webhooks.ts hands on the same fence', () => {
    expect(reexported).toBe(isRefusedAddress);
  });
});
