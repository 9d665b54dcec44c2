import { formatIp, parseIp, type IpAddress } from './ip-address.js';
import { cidrListContains, type CidrList } from './parse-cidrs.js';

export interface ResolveClientIpInput {
  /** The direct TCP peer. */
  readonly peerAddress: string | null;
  /** Every `X-Forwarded-For` header value received, in order. */
  readonly forwardedFor: readonly string[] | undefined;
  readonly trustedProxies: CidrList;
  /** Longest accepted X-Forwarded-For (all values joined with `,`). */
  readonly maxHeaderLength: number;
  /** Most hops accepted in X-Forwarded-For. */
  readonly maxHops: number;
}

/**
 * The client's address, normalised. X-Forwarded-For counts only when the peer is a
 * trusted proxy; it is then validated whole (bounded length and hops, every hop a
 * strict IP) or ignored in favour of the peer. The chain is read right to left
 * past trusted proxies: the first untrusted hop is the client, because everything
 * to its left was written by a party we do not trust. When every hop is trusted,
 * the peer. Null when the peer is unusable.
 */
export function resolveClientIp(input: ResolveClientIpInput): string | null {
  const peer = input.peerAddress === null ? null : parseIp(input.peerAddress);
  if (peer === null) return null;
  if (!cidrListContains(input.trustedProxies, peer)) return formatIp(peer);
  const hops = parseForwardedFor(input);
  if (hops === null) return formatIp(peer);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as IpAddress;
    if (!cidrListContains(input.trustedProxies, hop)) return formatIp(hop);
  }
  // Every hop is a trusted proxy: nothing names a client, so the direct peer is the
  // honest answer (the left-most hop could be anything a trusted hop passed through).
  return formatIp(peer);
}

/** The hops, left to right; null when absent or malformed in any way. */
function parseForwardedFor(input: ResolveClientIpInput): IpAddress[] | null {
  const values = input.forwardedFor;
  if (values === undefined || values.length === 0) return null;
  const joined = values.join(',');
  if (joined.length > input.maxHeaderLength) return null;
  const items = joined.split(',');
  if (items.length > input.maxHops) return null;
  const hops: IpAddress[] = [];
  for (const item of items) {
    // RFC 9110 list syntax allows spaces and tabs around items, nothing else.
    const hop = parseIp(trimOws(item));
    if (hop === null) return null;
    hops.push(hop);
  }
  return hops;
}

/**
 * RFC 9110 optional whitespace (spaces and tabs) cut from both ends, in one pass: a
 * `[ \t]+$` regex rescans a long inner run of blanks for every start position.
 */
function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
