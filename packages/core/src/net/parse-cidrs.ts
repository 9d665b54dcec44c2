import { parseIp, type IpAddress } from './ip-address.js';

/** One network: `address` with the first `prefix` bits significant. */
export interface CidrRange {
  readonly address: IpAddress;
  readonly prefix: number;
}

/** A validated list of networks (for example the trusted proxies). */
export type CidrList = readonly CidrRange[];

const PREFIX = /^(?:0|[1-9]\d{0,2})$/;

/**
 * Parses CIDR strings once, at start-up. A bare address means /32 (IPv4) or /128
 * (IPv6); an IPv4-mapped range (`::ffff:10.0.0.0/104`) becomes its IPv4 range
 * because mapped peers are collapsed to IPv4 before matching. Surrounding
 * whitespace is ignored; host bits beyond the prefix are allowed and ignored.
 * Throws an `Error` naming the first bad entry (the options resolver wraps it).
 */
export function parseCidrs(list: readonly string[]): CidrList {
  return list.map((entry) => {
    const range = parseCidr(entry.trim());
    if (range === null) throw new Error(`not a valid IP address or CIDR range: "${entry}"`);
    return range;
  });
}

/** True when `ip` lies inside one of the networks. Addresses only match ranges of their own family. */
export function cidrListContains(list: CidrList, ip: IpAddress): boolean {
  return list.some((range) => range.address.kind() === ip.kind() && ip.match(range.address, range.prefix));
}

function parseCidr(text: string): CidrRange | null {
  const parts = text.split('/');
  if (parts.length > 2) return null;
  const [addressText = '', prefixText] = parts;
  const parsedAddress = parseIp(addressText);
  if (parsedAddress === null) return null;
  const isMapped = addressText.includes(':') && parsedAddress.kind() === 'ipv4';
  const bits = isMapped ? 128 : parsedAddress.kind() === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined && !PREFIX.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  if (!isMapped) return { address: parsedAddress, prefix };
  // A mapped range wider than ::ffff:0:0/96 would also cover non-mapped IPv6.
  if (prefix < 96) return null;
  return { address: parsedAddress, prefix: prefix - 96 };
}
