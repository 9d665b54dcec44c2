// DPoP (RFC 9449) in the core, the cases the HTTP suite cannot set up from a plain socket: the URI
// behind a trusted proxy, JWT_ALLOWED_HOSTS, htu normalisation, key sizes, a host that turns DPoP off
// after sessions were bound, and a rate-limit store fault. Proofs are built here with jose and
// node:crypto from the RFC's text, never with the core's code.
import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { SessauthError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions } from '../src/options/options.js';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit-store.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { RateLimitStore } from '../src/store/store-port.js';
import { sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

interface User {
  readonly id: string;
}

const HOST = 'api.example';
const PROXY = '10.0.0.1';

async function engine(options: Partial<SessauthOptions> = {}, parts: { store?: MemorySessionStore; rateLimitStore?: RateLimitStore } = {}) {
  return createSessauth<User>({
    options: {
      secretKey: 'an-hmac-secret-of-exactly-32-by!',
      issuer: 'https://issuer.test',
      audience: 'aud',
      dpop: 'allowed',
      // Many logins from one address: the proofs, not the throttles, are under test.
      loginThrottleRate: '0',
      loginAccountThrottleRate: '0',
      loginNetworkThrottleRate: '0',
      ...options,
    },
    store: parts.store ?? new MemorySessionStore(),
    rateLimitStore: parts.rateLimitStore ?? new MemoryRateLimitStore(),
    users: { findById: async (id) => ({ id }), idOf: (user) => user.id, securityStamp: () => 'stamp' },
    authenticator: async () => ({ id: 'user-alice' }),
    logger: silentLogger,
  });
}

const es256 = (async () => {
  const pair = await generateKeyPair('ES256');
  return { privateKey: pair.privateKey, jwk: await exportJWK(pair.publicKey) };
})();

async function proof(htm: string, htu: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { privateKey, jwk } = await es256;
  return new SignJWT({ jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000), ...extra })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
    .sign(privateKey);
}

/** RS256 by hand (jose refuses to sign with a key under 2048 bits). */
function rsaProof(bits: number, htm: string, htu: string): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  const { n, e } = publicKey.export({ format: 'jwk' }) as JWK;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${b64({ alg: 'RS256', typ: 'dpop+jwt', jwk: { kty: 'RSA', n, e } })}.${b64({ jti: randomUUID(), htm, htu, iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`;
}

type Auth = Awaited<ReturnType<typeof engine>>;

async function login(auth: Auth, headers: Record<string, string>, facts: { peerAddress?: string; secure?: boolean } = {}) {
  const response = await auth.handle(
    sessauthRequest({
      method: 'POST',
      path: '/auth/login/',
      headers: { 'content-type': 'application/json', host: HOST, ...headers },
      body: JSON.stringify({ username: 'alice', password: 'pw' }),
      ...facts,
    }),
  );
  return { status: response!.status, body: JSON.parse(response!.body!) as Record<string, string>, headers: response!.headers };
}

async function refused(promise: Promise<unknown>): Promise<SessauthError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SessauthError)) throw new Error(`expected a SessauthError, got ${String(error)}`);
  return error;
}

describe('DPoP in the core', () => {
  it('behind a trusted proxy the htu scheme is X-Forwarded-Proto; from any other peer that header is ignored', async () => {
    const auth = await engine({ trustedProxyCidrs: [`${PROXY}/32`] });
    const viaProxy = { peerAddress: PROXY };
    const https = await login(auth, { 'x-forwarded-proto': 'https', dpop: await proof('POST', `https://${HOST}/auth/login/`) }, viaProxy);
    expect(https.status).toBe(200);
    expect(https.body.token_type).toBe('DPoP');
    const claimedHttp = await login(auth, { 'x-forwarded-proto': 'https', dpop: await proof('POST', `http://${HOST}/auth/login/`) }, viaProxy);
    expect(claimedHttp.status).toBe(401);
    // Not a trusted peer: its X-Forwarded-Proto does not make the request https.
    const spoofed = await login(
      auth,
      { 'x-forwarded-proto': 'https', dpop: await proof('POST', `https://${HOST}/auth/login/`) },
      { peerAddress: '192.0.2.7' },
    );
    expect(spoofed.status).toBe(401);
    expect(spoofed.body.error_code).toBe('invalid_dpop_proof');
    expect(spoofed.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);
  });

  it('with JWT_ALLOWED_HOSTS, a Host outside the list matches no proof', async () => {
    const auth = await engine({ allowedHosts: ['other.example'] });
    expect((await login(auth, { dpop: await proof('POST', `http://${HOST}/auth/login/`) })).status).toBe(401);
    const listed = await engine({ allowedHosts: [HOST] });
    expect((await login(listed, { dpop: await proof('POST', `http://${HOST}/auth/login/`) })).status).toBe(200);
  });

  it("compares htu as RFC 3986 normalises it: the scheme and host's case, the default port, dot segments", async () => {
    const auth = await engine();
    for (const htu of [`HTTP://API.EXAMPLE:80/auth/login/`, `http://${HOST}/auth/x/../login/`, `http://${HOST}/auth/login/?q=1#f`]) {
      expect((await login(auth, { dpop: await proof('POST', htu) })).status, htu).toBe(200);
    }
    for (const htu of [`http://${HOST}:8080/auth/login/`, `http://${HOST}/auth/login`, `ftp://${HOST}/auth/login/`, 'not a url']) {
      expect((await login(auth, { dpop: await proof('POST', htu) })).status, htu).toBe(401);
    }
  });

  it('an RSA key of 2048 bits is taken, one of 2047 is not', async () => {
    const auth = await engine();
    expect((await login(auth, { dpop: rsaProof(2048, 'POST', `http://${HOST}/auth/login/`) })).status).toBe(200);
    expect((await login(auth, { dpop: rsaProof(2047, 'POST', `http://${HOST}/auth/login/`) })).status).toBe(401);
  });

  it('a host that turns DPoP off keeps refusing the sessions it bound (never a silent downgrade to Bearer)', async () => {
    const store = new MemorySessionStore();
    const on = await engine({}, { store });
    const bound = await login(on, { dpop: await proof('POST', `http://${HOST}/auth/login/`) });
    const off = await engine({ dpop: 'off' }, { store });
    const asBearer = await refused(off.authenticate({ authorization: [`Bearer ${bound.body.access_token}`] }));
    expect(asBearer.code).toBe('invalid_token');
    const refresh = await off.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/refresh/',
        headers: { 'content-type': 'application/json', host: HOST },
        body: JSON.stringify({ refresh_token: bound.body.refresh_token }),
      }),
    );
    expect(refresh?.status).toBe(401);
  });

  it('a rate-limit store fault refuses a DPoP request with 503, never lets the proof through unrecorded', async () => {
    const failing: RateLimitStore = { hit: () => Promise.reject(new Error('down')) };
    const auth = await engine({}, { rateLimitStore: failing });
    const answer = await login(auth, { dpop: await proof('POST', `http://${HOST}/auth/login/`) });
    expect(answer.status).toBe(503);
    expect(answer.body.error_code).toBe('service_unavailable');
  });

  it('a guard call without the request facts refuses a DPoP token and still serves Bearer ones', async () => {
    const auth = await engine();
    const bound = await login(auth, { dpop: await proof('POST', `http://${HOST}/auth/login/`) });
    const error = await refused(auth.authenticate({ authorization: [`DPoP ${bound.body.access_token}`] }));
    expect(error.code).toBe('invalid_dpop_proof');
    const plain = await login(auth, {});
    await expect(auth.authenticate({ authorization: [`Bearer ${plain.body.access_token}`] })).resolves.toMatchObject({ user: { id: 'user-alice' } });
  });
});
