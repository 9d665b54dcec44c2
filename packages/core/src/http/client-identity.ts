import type { Engine } from '../engine.js';
import { cidrListContains } from '../net/parse-cidrs.js';
import { parseIp } from '../net/ip-address.js';
import { resolveClientIp } from '../net/resolve-client-ip.js';
import { headerValues } from './request-headers.js';
import type { RequestHeaders } from './sessauth-request.js';

interface PeerFacts {
  readonly headers: RequestHeaders;
  readonly peerAddress: string | null;
  readonly secure: boolean;
}

/** The client's IP: the peer, or X-Forwarded-For when the peer is a trusted proxy. */
export function clientIpOf<U>(engine: Engine<U>, request: PeerFacts): string | null {
  return resolveClientIp({
    peerAddress: request.peerAddress,
    forwardedFor: headerValues(request.headers, 'x-forwarded-for'),
    trustedProxies: engine.trustedProxies,
    maxHeaderLength: engine.options.maxForwardedHeaderLength,
    maxHops: engine.options.maxForwardedHops,
  });
}

/** HTTPS as the client saw it: TLS on the socket, or a trusted proxy's X-Forwarded-Proto. */
export function isSecureRequest<U>(engine: Engine<U>, request: PeerFacts): boolean {
  if (request.secure) return true;
  const peer = request.peerAddress === null ? null : parseIp(request.peerAddress);
  if (peer === null || !cidrListContains(engine.trustedProxies, peer)) return false;
  const proto = headerValues(request.headers, 'x-forwarded-proto');
  return proto !== undefined && proto.length === 1 && proto[0]!.trim().toLowerCase() === 'https';
}
