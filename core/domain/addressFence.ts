import { isIP } from 'node:net';

/**
 * The address fence of webhook deliveries (docs/webhooks.md): which IP addresses a delivery may not
 * connect to unless WEBHOOK_ALLOW_PRIVATE_URLS. Used on a URL's literal host and on every address
 * its name resolves to, at each delivery. Pure: no I/O.
 *
 * The rule: every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and
 * its updates, as of 2025) is refused, and so are multicast, the reserved 240.0.0.0/4, the old
 * site-local fec0::/10 and the IPv6 forms that carry an IPv4 address. A webhook receiver is a
 * globally reachable unicast host with an ordinary assigned address; nothing here is one.
 *
 * Registry entries marked "globally reachable: true" that are refused all the same, and why:
 * - 192.0.0.9/32, 192.0.0.10/32, 2001:1::1/128, 2001:1::2/128, 2001:1::3/128: anycast addresses of
 *   one protocol each (PCP, TURN, DNS-SD SRP); no receiver lives there.
 * - 192.31.196.0/24, 192.175.48.0/24, 2001:4:112::/48, 2620:4f:8000::/48 (AS112): anycast sinks for
 *   reverse lookups of private space, run by whoever volunteers nearby; no receiver lives there.
 * - 192.52.193.0/24, 2001:3::/32 (AMT): multicast tunnelling relays; no receiver lives there.
 * - 2001:20::/28 (ORCHIDv2) and 2001:30::/28 (DETs): identifiers rather than locators; they and the
 *   anycast entries above sit in 2001::/23 (IETF protocol assignments), which is refused whole
 *   because most of it is not globally reachable and its Teredo 2001::/32 carries an IPv4 address.
 * - 64:ff9b::/96 (NAT64 well-known prefix): it carries an IPv4 address, which may be a private one
 *   on the far side of a translator.
 *
 * Embedded IPv4: each IPv6 form that carries an IPv4 address is refused as a whole prefix, whatever
 * the IPv4 address inside (IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96, IPv4-translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, Teredo 2001::/32, 6to4 2002::/16): no
 * need to find and judge the IPv4 address inside, in whatever spelling.
 *
 * Also refused: anything that is not an IP address, and an IPv6 address with a zone id
 * (fe80::1%eth0; node:net's isIP accepts those).
 *
 * The prefixes are matched here on the address's bits, not with node:net's BlockList: a BlockList
 * holding an IPv6 rule for ::ffff:0:0/96 refuses every IPv4 address checked against it.
 */

interface RefusedRange {
  /** The range, CIDR. */
  readonly cidr: string;
  /** What it is, and where it is defined. */
  readonly what: string;
}

/** The IANA IPv4 Special-Purpose Address Registry, with multicast and the limited broadcast. */
export const REFUSED_IPV4_RANGES: readonly RefusedRange[] = [
  { cidr: '0.0.0.0/8', what: '"This network" (RFC 791 §3.2); 0.0.0.0/32 "this host on this network" (RFC 1122)' },
  { cidr: '10.0.0.0/8', what: 'Private-Use (RFC 1918)' },
  { cidr: '100.64.0.0/10', what: 'Shared Address Space, carrier-grade NAT (RFC 6598)' },
  { cidr: '127.0.0.0/8', what: 'Loopback (RFC 1122)' },
  { cidr: '169.254.0.0/16', what: 'Link Local, cloud metadata at 169.254.169.254 (RFC 3927)' },
  { cidr: '172.16.0.0/12', what: 'Private-Use (RFC 1918)' },
  // Whole, with its entries: 192.0.0.0/29 IPv4 Service Continuity Prefix (RFC 7335), 192.0.0.8/32 IPv4
  // dummy address (RFC 7600), 192.0.0.9/32 PCP anycast (RFC 7723), 192.0.0.10/32 TURN anycast
  // (RFC 8155), 192.0.0.170/32 and 192.0.0.171/32 NAT64/DNS64 discovery (RFC 7050, RFC 8880).
  { cidr: '192.0.0.0/24', what: 'IETF Protocol Assignments (RFC 6890)' },
  { cidr: '192.0.2.0/24', what: 'Documentation, TEST-NET-1 (RFC 5737)' },
  { cidr: '192.31.196.0/24', what: 'AS112-v4 (RFC 7535)' },
  { cidr: '192.52.193.0/24', what: 'AMT, Automatic Multicast Tunneling (RFC 7450)' },
  // With 192.88.99.2/32, the 6a44-relay anycast address (RFC 6751).
  { cidr: '192.88.99.0/24', what: 'Deprecated 6to4 Relay Anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', what: 'Private-Use (RFC 1918)' },
  { cidr: '192.175.48.0/24', what: 'Direct Delegation AS112 Service (RFC 7534)' },
  { cidr: '198.18.0.0/15', what: 'Benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', what: 'Documentation, TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', what: 'Documentation, TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', what: 'Multicast (RFC 5771; not in the special-purpose registry, never unicast)' },
  { cidr: '240.0.0.0/4', what: 'Reserved (RFC 1112 §4)' },
  { cidr: '255.255.255.255/32', what: 'Limited Broadcast (RFC 919 §7, RFC 8190); inside 240.0.0.0/4, listed as the registry does' },
];

/** The IANA IPv6 Special-Purpose Address Registry, with the deprecated forms and multicast. */
export const REFUSED_IPV6_RANGES: readonly RefusedRange[] = [
  { cidr: '::/128', what: 'Unspecified Address (RFC 4291)' },
  { cidr: '::1/128', what: 'Loopback Address (RFC 4291)' },
  { cidr: '::/96', what: 'IPv4-compatible, deprecated, carries an IPv4 address (RFC 4291 §2.5.5.1); holds ::/128 and ::1/128' },
  { cidr: '::ffff:0:0/96', what: 'IPv4-mapped, carries an IPv4 address (RFC 4291 §2.5.5.2)' },
  { cidr: '::ffff:0:0:0/96', what: 'IPv4-translated, carries an IPv4 address (RFC 2765 §2.1)' },
  { cidr: '64:ff9b::/96', what: 'IPv4-IPv6 Translation, NAT64 well-known prefix, carries an IPv4 address (RFC 6052)' },
  { cidr: '64:ff9b:1::/48', what: 'IPv4-IPv6 Translation, local-use NAT64, carries an IPv4 address (RFC 8215)' },
  { cidr: '100::/64', what: 'Discard-Only Address Block (RFC 6666)' },
  { cidr: '100:0:0:1::/64', what: 'Dummy IPv6 Prefix (RFC 9780)' },
  // Whole, with its entries: 2001::/32 Teredo, carries an IPv4 address (RFC 4380, RFC 8190);
  // 2001:1::1/128 PCP anycast (RFC 7723); 2001:1::2/128 TURN anycast (RFC 8155); 2001:1::3/128
  // DNS-SD SRP anycast (RFC 9665); 2001:2::/48 Benchmarking (RFC 5180); 2001:3::/32 AMT (RFC 7450);
  // 2001:4:112::/48 AS112-v6 (RFC 7535); 2001:10::/28 deprecated ORCHID (RFC 4843);
  // 2001:20::/28 ORCHIDv2 (RFC 7343); 2001:30::/28 Drone Remote ID DETs (RFC 9374).
  { cidr: '2001::/23', what: 'IETF Protocol Assignments (RFC 2928)' },
  { cidr: '2001:db8::/32', what: 'Documentation (RFC 3849)' },
  { cidr: '2002::/16', what: '6to4, carries an IPv4 address (RFC 3056)' },
  { cidr: '2620:4f:8000::/48', what: 'Direct Delegation AS112 Service (RFC 7534)' },
  { cidr: '3fff::/20', what: 'Documentation (RFC 9637)' },
  { cidr: '5f00::/16', what: 'Segment Routing (SRv6) SIDs (RFC 9602)' },
  { cidr: 'fc00::/7', what: 'Unique-Local (RFC 4193, RFC 8190)' },
  { cidr: 'fe80::/10', what: 'Link-Local Unicast (RFC 4291)' },
  { cidr: 'fec0::/10', what: 'Site-Local, deprecated (RFC 3879)' },
  { cidr: 'ff00::/8', what: 'Multicast (RFC 4291)' },
];

/** An IPv4 address (dotted decimal, as isIP accepts it) as its 32 bits. */
function ipv4Bits(address: string): bigint | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let bits = 0n;
  for (const part of parts) {
    const octet = Number(part);
    if (!/^\d{1,3}$/.test(part) || octet > 255) return null;
    bits = (bits << 8n) | BigInt(octet);
  }
  return bits;
}

/** An IPv6 address (no zone id; `::` and a dotted IPv4 tail allowed, any case) as its 128 bits. */
function ipv6Bits(address: string): bigint | null {
  let text = address;
  if (text.includes('.')) {
    const colon = text.lastIndexOf(':');
    const tail = ipv4Bits(text.slice(colon + 1));
    if (tail === null) return null;
    text = `${text.slice(0, colon + 1)}${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  let bits = 0n;
  for (const group of [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    bits = (bits << 16n) | BigInt(Number.parseInt(group, 16));
  }
  return bits;
}

interface Prefix {
  /** The network's bits, shifted right to the prefix length. */
  readonly network: bigint;
  /** How many bits are not part of the prefix. */
  readonly shift: bigint;
}

function prefixesOf(ranges: readonly RefusedRange[], width: number, bitsOf: (address: string) => bigint | null): Prefix[] {
  return ranges.map(({ cidr }) => {
    const [network, length] = cidr.split('/') as [string, string];
    const bits = bitsOf(network);
    const prefix = Number(length);
    const shift = BigInt(width - prefix);
    if (bits === null || !Number.isInteger(prefix) || prefix < 0 || prefix > width || (bits >> shift) << shift !== bits) {
      throw new Error(`addressFence: ${cidr} is not a network`);
    }
    return { network: bits >> shift, shift };
  });
}

const IPV4_PREFIXES = prefixesOf(REFUSED_IPV4_RANGES, 32, ipv4Bits);
const IPV6_PREFIXES = prefixesOf(REFUSED_IPV6_RANGES, 128, ipv6Bits);

/** Whether a delivery may not connect to this address: see the top of this file. */
export function isRefusedAddress(address: string): boolean {
  if (address.includes('%')) return true;
  const family = isIP(address);
  const bits = family === 4 ? ipv4Bits(address) : family === 6 ? ipv6Bits(address) : null;
  if (bits === null) return true;
  return (family === 4 ? IPV4_PREFIXES : IPV6_PREFIXES).some(({ network, shift }) => bits >> shift === network);
}
