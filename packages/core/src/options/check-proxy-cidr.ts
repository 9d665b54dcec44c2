import ipaddr from 'ipaddr.js';
import { SettingsError } from '../errors/sessauth-error.js';

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
/** Four-part decimal IPv4 only: ipaddr.js also takes inet_aton forms (`127.1`, `0x7f.0.0.1`, `010.0.0.1`). */
const STRICT_IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/**
 * Parses `address/prefix` strictly: IPv4 must be four-part decimal (also as the tail of
 * an IPv6 address), IPv6 zone ids are refused, the prefix is plain decimal. Returns null
 * when malformed. A bare address (no `/prefix`) is malformed: write `/32` or `/128`.
 */
export function parseStrictCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const address = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (!/^(?:0|[1-9][0-9]{0,2})$/.test(prefix)) return null;
  if (address.includes(':')) {
    if (address.includes('%')) return null;
    const dotted = /:([^:]*\.[^:]*)$/.exec(address);
    if (dotted && !STRICT_IPV4.test(dotted[1]!)) return null;
  } else if (!STRICT_IPV4.test(address)) {
    return null;
  }
  try {
    return ipaddr.parseCIDR(text);
  } catch {
    return null;
  }
}

/** Throws a `SettingsError` naming `setting` unless `cidr` parses strictly. */
export function checkProxyCidr(cidr: string, setting: string): void {
  if (parseStrictCidr(cidr) === null) {
    const shown = JSON.stringify(cidr.length > 64 ? `${cidr.slice(0, 64)}...` : cidr);
    throw new SettingsError(
      setting,
      `each entry must be a CIDR range such as 10.0.0.0/8 or fd00::/8 (four-part decimal IPv4, no zone id), got ${shown}`,
    );
  }
}
