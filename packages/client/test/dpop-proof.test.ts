import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccessToken } from '../src/access-token.js';
import { DpopKeyring } from '../src/dpop-key.js';
import { DpopSigner } from '../src/dpop-proof.js';

// The proofs' form, checked from RFC 9449 s4.2 with WebCrypto (the browser suite runs them against a
// server). Outside a browser there is no IndexedDB: the key lives in the keyring's memory.

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

async function verified(proof: string): Promise<{ header: Record<string, unknown>; claims: Record<string, unknown> }> {
  const [header, claims, signature] = proof.split('.') as [string, string, string];
  const jwk = decode(header).jwk as JsonWebKey;
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const ok = await crypto.subtle.verify(
    { name: 'ECDSA', hash: 'SHA-256' },
    key,
    Buffer.from(signature, 'base64url'),
    new TextEncoder().encode(`${header}.${claims}`),
  );
  expect(ok).toBe(true);
  return { header: decode(header), claims: decode(claims) };
}

const thumbprint = (jwk: Record<string, unknown>) =>
  createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');

describe('DPoP proofs of the client (dpop: true)', () => {
  it('a login proof: ES256 over a public P-256 JWK, typ dpop+jwt, htm/htu/iat/jti, no ath', async () => {
    const signer = new DpopSigner(new DpopKeyring('test-a'), () => 1_700_000_000_500);
    const { header, claims } = await verified(await signer.loginProof('https://api.example/auth/login/'));
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(Object.keys(header.jwk as object).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(claims).toEqual({
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      htm: 'POST',
      htu: 'https://api.example/auth/login/',
      iat: 1_700_000_000,
    });
  });

  it('an authed request: DPoP scheme, htu without query or fragment, ath of the token; a new jti each time', async () => {
    const keyring = new DpopKeyring('test-b');
    const signer = new DpopSigner(keyring, Date.now);
    const key = await keyring.obtain();
    const token: AccessToken = { raw: 'header.payload.sig', sid: 's', expiresAt: 0, lifetimeMs: 0, jkt: key.jkt };
    const request = await signer.authorize(new Request('https://api.example/orders?page=2#top', { method: 'PATCH' }), token);
    expect(request.headers.get('authorization')).toBe('DPoP header.payload.sig');
    const { header, claims } = await verified(request.headers.get('dpop')!);
    expect(thumbprint(header.jwk as Record<string, unknown>)).toBe(key.jkt);
    expect(claims).toMatchObject({
      htm: 'PATCH',
      htu: 'https://api.example/orders',
      ath: createHash('sha256').update('header.payload.sig').digest('base64url'),
    });
    const again = await signer.authorize(new Request('https://api.example/orders'), token);
    expect((await verified(again.headers.get('dpop')!)).claims.jti).not.toBe(claims.jti);
  });

  it('an unbound token (the server has DPoP off) goes as Bearer, with no proof', async () => {
    const signer = new DpopSigner(new DpopKeyring('test-c'), Date.now);
    const request = await signer.authorize(new Request('https://api.example/me'), { raw: 't', sid: null, expiresAt: 0, lifetimeMs: 0, jkt: null });
    expect([request.headers.get('authorization'), request.headers.get('dpop')]).toEqual(['Bearer t', null]);
  });

  it('the key is kept until its session ends; then a refresh has none to sign with, and the next login makes a new one', async () => {
    const keyring = new DpopKeyring('test-d');
    const signer = new DpopSigner(keyring, Date.now);
    const first = await keyring.obtain();
    expect((await keyring.obtain()).jkt).toBe(first.jkt);
    expect(first.privateKey.extractable).toBe(false);
    expect(
      await crypto.subtle.exportKey('pkcs8', first.privateKey).then(
        () => 'exported',
        (error: DOMException) => error.name,
      ),
    ).toMatch(/^InvalidAccess/); // Node names it InvalidAccessException; browsers InvalidAccessError
    await signer.forget(first.jkt);
    expect(await signer.refreshProof('https://api.example/auth/refresh/', first.jkt)).toBeNull();
    expect((await keyring.obtain()).jkt).not.toBe(first.jkt);
  });
});
