import ipaddr from 'ipaddr.js';
import { formatIp, parseIp } from '../net/ip-address.js';

/**
 * The identity a client is counted under: an IPv4 address as itself, an IPv6
 * address by its `/ipv6Prefix` network (a single host usually owns a whole /64,
 * so counting per address would let it rotate through 2^64 budgets). A missing or
 * unparseable address shares the one `unknown` bucket.
 */
export function clientRateKey(ip: string | null, ipv6Prefix = 64): string {
  if (!Number.isInteger(ipv6Prefix) || ipv6Prefix < 1 || ipv6Prefix > 128) {
    throw new Error(`ipv6Prefix must be an integer from 1 to 128, got ${ipv6Prefix}`);
  }
  const parsed = ip === null ? null : parseIp(ip);
  if (parsed === null) return 'unknown';
  if (parsed.kind() === 'ipv4') return formatIp(parsed);
  const network = maskIpv6((parsed as ipaddr.IPv6).parts, ipv6Prefix);
  return `${network.toRFC5952String()}/${ipv6Prefix}`;
}

function maskIpv6(parts: readonly number[], prefix: number): ipaddr.IPv6 {
  const masked = parts.map((part, index) => {
    const bitsInGroup = Math.min(16, Math.max(0, prefix - index * 16));
    const mask = bitsInGroup === 0 ? 0 : (0xffff << (16 - bitsInGroup)) & 0xffff;
    return part & mask;
  });
  return new ipaddr.IPv6(masked);
}

/**
 * The network a client is counted under for the per-network login budget: its IPv4 address
 * masked to `/ipv4Prefix` (a /24 by default), its IPv6 address to `/ipv6Prefix` (a /48), so
 * one network cannot fill the password hasher's line by rotating addresses.
 */
export function networkRateKey(ip: string | null, ipv4Prefix: number, ipv6Prefix: number): string {
  const parsed = ip === null ? null : parseIp(ip);
  if (parsed === null) return 'unknown';
  if (parsed.kind() === 'ipv6') return clientRateKey(ip, ipv6Prefix);
  const bytes = (parsed as ipaddr.IPv4).octets.map((octet, index) => {
    const bits = Math.min(8, Math.max(0, ipv4Prefix - index * 8));
    return bits === 0 ? 0 : octet & ((0xff << (8 - bits)) & 0xff);
  });
  return `${bytes.join('.')}/${ipv4Prefix}`;
}
