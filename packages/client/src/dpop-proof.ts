import type { AccessToken } from './access-token.js';
import { base64url } from './dpop-encoding.js';
import type { DpopKey, DpopKeyring } from './dpop-key.js';

/**
 * Signs RFC 9449 proofs with the API's key and puts access tokens on requests. Every request gets
 * a proof of its own (a new `jti`): the server refuses a proof it has seen, so a retry signs again.
 */
export class DpopSigner {
  constructor(
    private readonly keyring: DpopKeyring,
    private readonly now: () => number,
  ) {}

  /** The login's proof: signed with the API's key, made now when there is none. */
  async loginProof(url: string): Promise<string> {
    return signProof(await this.keyring.obtain(), 'POST', url, this.now());
  }

  /**
   * A refresh's proof, by the key of thumbprint `jkt` (the session's, when known), or the stored
   * key; null when there is no key (then the server refuses a bound session's refresh: 401).
   */
  async refreshProof(url: string, jkt: string | null): Promise<string | null> {
    const key = await this.keyring.find(jkt);
    return key === null ? null : signProof(key, 'POST', url, this.now());
  }

  /**
   * The headers that carry an access token: `Authorization: DPoP` and a proof naming the method,
   * the URL (query and fragment left out, RFC 9449 s4.2) and the token (`ath`). A token the server
   * did not bind (no `cnf.jkt`: its `JWT_DPOP` is off) goes as `Bearer`, as without this option.
   */
  async authHeaders(method: string, url: string, token: AccessToken): Promise<Record<string, string>> {
    if (token.jkt === null) return { authorization: `Bearer ${token.raw}` };
    const key = await this.keyring.find(token.jkt);
    // The key is gone (its session was signed out in another tab): the server answers 401 invalid_dpop_proof.
    if (key === null) return { authorization: `DPoP ${token.raw}` };
    return { authorization: `DPoP ${token.raw}`, dpop: await signProof(key, method, url, this.now(), token.raw) };
  }

  /** A copy of `request` carrying the access token (`authHeaders`). */
  async authorize(request: Request, token: AccessToken): Promise<Request> {
    const headers = new Headers(request.headers);
    headers.delete('dpop');
    for (const [name, value] of Object.entries(await this.authHeaders(request.method, request.url, token))) headers.set(name, value);
    return new Request(request, { headers });
  }

  /** The session that used `jkt` ended: the key goes with it (the next sign-in makes a new one). */
  forget(jkt: string | null): Promise<void> {
    return this.keyring.forget(jkt);
  }
}

/** A DPoP proof JWT (RFC 9449 s4.2): ES256, `typ: dpop+jwt`, the public JWK in the header. */
export async function signProof(key: DpopKey, method: string, url: string, nowMs: number, accessToken?: string): Promise<string> {
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.jwk };
  const claims: Record<string, string | number> = {
    jti: base64url(crypto.getRandomValues(new Uint8Array(16))),
    htm: method,
    htu: url.split(/[?#]/)[0]!,
    iat: Math.floor(nowMs / 1000),
  };
  if (accessToken !== undefined) claims.ath = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))));
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  // WebCrypto's ECDSA signature is r || s (IEEE P1363), the form JWS ES256 wants (RFC 7518 s3.4).
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, new TextEncoder().encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}
