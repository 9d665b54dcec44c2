import ipaddr from 'ipaddr.js';

/** A parsed address; IPv4-mapped IPv6 is always collapsed to IPv4. */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

// The longest textual IPv6 address (with an embedded IPv4 tail) has 45 characters;
// capping first keeps ipaddr.js' regular expressions away from huge inputs.
const MAX_IP_TEXT_LENGTH = 45;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// Four decimal octets, no leading zeros: rejects every inet_aton form (`127.1`,
// `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`) that ipaddr.js' parse() accepts.
const STRICT_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;

/**
 * Parses an IP address strictly: four-part decimal IPv4, or IPv6 without a zone id
 * or brackets. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) comes back as IPv4. Anything
 * else (ports, whitespace, inet_aton forms) gives null.
 */
export function parseIp(text: string): IpAddress | null {
  if (text.length === 0 || text.length > MAX_IP_TEXT_LENGTH) return null;
  if (STRICT_IPV4.test(text)) return ipaddr.IPv4.parse(text);
  if (!IPV6_CHARS.test(text) || !text.includes(':')) return null;
  const hexOnly = embeddedIpv4ToHex(text);
  if (hexOnly === null || !ipaddr.IPv6.isValid(hexOnly)) return null;
  const ip = ipaddr.IPv6.parse(hexOnly);
  return ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
}

/** The canonical text of an address: dotted IPv4, or RFC 5952 lower-case IPv6. Null when malformed. */
export function normalizeIp(text: string): string | null {
  const ip = parseIp(text);
  return ip === null ? null : formatIp(ip);
}

/** Canonical text of a parsed address (see `normalizeIp`). */
export function formatIp(ip: IpAddress): string {
  return ip.kind() === 'ipv4' ? ip.toString() : (ip as ipaddr.IPv6).toRFC5952String();
}

/**
 * Rewrites a dotted IPv4 tail (`::ffff:1.2.3.4`) as two hex groups, after checking
 * it strictly: ipaddr.js reads such tails loosely (`0177` as 177) and turns the
 * IPv4-compatible form `::1.2.3.4` into a mapped address.
 */
function embeddedIpv4ToHex(text: string): string | null {
  if (!text.includes('.')) return text;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (!STRICT_IPV4.test(tail)) return null;
  const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
  const hex = (hi: number, lo: number): string => ((hi << 8) | lo).toString(16);
  return `${text.slice(0, lastColon + 1)}${hex(a, b)}:${hex(c, d)}`;
}

type Range<T> = readonly [T, number];

// IANA special-purpose IPv4 blocks that are not globally reachable (RFC 6890 and
// later). Kept explicit so the answer does not drift with ipaddr.js' own table.
const IPV4_NON_GLOBAL: readonly Range<ipaddr.IPv4>[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

// Global unicast lives in 2000::/3; inside it these blocks are special-purpose
// (IETF protocol assignments incl. benchmarking 2001:2::/48, documentation).
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV6_NON_GLOBAL: readonly Range<ipaddr.IPv6>[] = ['2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20'].map((cidr) =>
  ipaddr.IPv6.parseCIDR(cidr),
);

const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * True when the address is globally routable, i.e. worth geolocating. False for
 * private, loopback, link-local, CGNAT, documentation, benchmarking, multicast,
 * reserved, unspecified, broadcast, unique-local and site-local addresses.
 * IPv6 forms that embed an IPv4 address (IPv4-mapped, 6to4 `2002::/16`, NAT64
 * `64:ff9b::/96`, Teredo `2001::/32` with its obfuscated client address) are
 * judged by that IPv4 address, so `2002:c0a8:0101::1` (192.168.1.1) is not routable.
 */
export function isGloballyRoutable(ip: IpAddress): boolean {
  if (ip.kind() === 'ipv4') return isGlobalIpv4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return isGlobalIpv4(v6.toIPv4Address());
  const embedded = embeddedIpv4(v6);
  if (embedded !== null) return isGlobalIpv4(embedded);
  if (!v6.match(IPV6_GLOBAL_UNICAST)) return false;
  if (v6.range() !== 'unicast') return false;
  return !IPV6_NON_GLOBAL.some((range) => v6.match(range[0], range[1]));
}

function isGlobalIpv4(ip: ipaddr.IPv4): boolean {
  if (ip.range() !== 'unicast') return false;
  return !IPV4_NON_GLOBAL.some((range) => ip.match(range[0], range[1]));
}

/** The IPv4 address a transition-mechanism IPv6 address carries, or null. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts as readonly number[];
  const fromGroups = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.match(SIX_TO_FOUR)) return fromGroups(p[1] ?? 0, p[2] ?? 0);
  if (ip.match(NAT64)) return fromGroups(p[6] ?? 0, p[7] ?? 0);
  // Teredo stores the client's public address with every bit inverted.
  if (ip.match(TEREDO)) return fromGroups((p[6] ?? 0) ^ 0xffff, (p[7] ?? 0) ^ 0xffff);
  return null;
}
