import type { WireContext } from './wire-context.js';
import { cidrListContains } from '../net/parse-cidrs.js';
import { parseIp } from '../net/ip-address.js';
import { resolveClientIp } from '../net/resolve-client-ip.js';
import { headerValues, soleValue } from './request-headers.js';
import type { RequestHeaders } from './sessauth-request.js';

interface PeerFacts {
  readonly headers: RequestHeaders;
  readonly peerAddress: string | null;
  readonly secure: boolean;
}

/** The client's IP: the peer, or X-Forwarded-For when the peer is a trusted proxy. */
export function clientIpOf(wire: WireContext, request: PeerFacts): string | null {
  return resolveClientIp({
    peerAddress: request.peerAddress,
    forwardedFor: headerValues(request.headers, 'x-forwarded-for'),
    trustedProxies: wire.trustedProxies,
    maxHeaderLength: wire.options.maxForwardedHeaderLength,
    maxHops: wire.options.maxForwardedHops,
  });
}

/**
 * HTTPS as the client saw it: TLS on the socket, or a trusted proxy's X-Forwarded-Proto.
 * An ambiguous one from a trusted proxy (two headers, a list, an unknown scheme) fails
 * closed: it counts as HTTPS, whose CSRF rules (a same-origin Referer) are the stricter.
 */
export function isSecureRequest(wire: WireContext, request: PeerFacts): boolean {
  if (request.secure) return true;
  const peer = request.peerAddress === null ? null : parseIp(request.peerAddress);
  if (peer === null || !cidrListContains(wire.trustedProxies, peer)) return false;
  const proto = headerValues(request.headers, 'x-forwarded-proto');
  if (proto === undefined) return false;
  return proto.length !== 1 || proto[0]!.trim().toLowerCase() !== 'http';
}

/**
 * The request's own host (`Host`, with its port) for the same-origin rules, or undefined.
 * With JWT_ALLOWED_HOSTS set (as Django's ALLOWED_HOSTS) only a listed host counts: a
 * forged `Host` then makes no origin "own". A repeated `Host` counts as none.
 */
export function ownHost(wire: WireContext, request: PeerFacts): string | undefined {
  const host = soleValue(headerValues(request.headers, 'host'));
  if (host === undefined) return undefined;
  const { allowedHosts } = wire.options;
  return allowedHosts.length === 0 || allowedHosts.some((allowed) => hostMatches(host, allowed)) ? host : undefined;
}

/** `example.com` matches itself (any port unless the entry names one); `.example.com` also its subdomains. */
function hostMatches(host: string, allowed: string): boolean {
  const candidate = host.toLowerCase();
  const withoutPort = candidate.replace(/:\d+$/, '');
  const entry = allowed.toLowerCase();
  if (entry === candidate || entry === withoutPort) return true;
  return entry.startsWith('.') && (withoutPort.endsWith(entry) || withoutPort === entry.slice(1));
}
