import type { SessauthOptions, TokenResponseBody } from '@sessauth/core';
import { decodeProtectedHeader } from 'jose';
import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import { expectError } from './expectations.js';
import { field, type HttpResult } from './http-client.js';
import type { SuiteKit } from './suite-kit.js';

/** Members of a private or symmetric JWK (RFC 7518): none may ever be published. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

function randomSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url');
}

function pem(label: string, der: ArrayBuffer): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

async function es256Pair(): Promise<{ privateKey: string; publicKey: string }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  return {
    privateKey: pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', pair.privateKey)),
    publicKey: pem('PUBLIC KEY', await crypto.subtle.exportKey('spki', pair.publicKey)),
  };
}

/** A device's current pair of tokens, moved forward by each refresh (body transport: it talks to whichever server runs). */
interface Device {
  access: string;
  refresh: string;
}

function tokensOf(result: HttpResult): { access: string; refresh: string } {
  const access = field<TokenResponseBody>(result.body, 'access_token');
  const refresh = field<TokenResponseBody>(result.body, 'refresh_token');
  if (typeof access !== 'string' || typeof refresh !== 'string') throw new Error(`no token pair in ${result.text}`);
  return { access, refresh };
}

/**
 * Refreshes and uses every device against `app`, counting the answers that would sign a user
 * out (anything but 200). Each new token must name `kid`.
 */
async function refreshAll(app: TestApp, devices: readonly Device[], kid: string): Promise<number> {
  let signOuts = 0;
  const client = app.client();
  for (const device of devices) {
    const refreshed = await app.refresh(client, device.refresh);
    if (refreshed.status !== 200) {
      signOuts += 1;
      continue;
    }
    Object.assign(device, tokensOf(refreshed));
    expect(decodeProtectedHeader(device.access).kid).toBe(kid);
    expect(decodeProtectedHeader(device.refresh).kid).toBe(kid);
    if ((await client.get('/me', { bearer: device.access })).status !== 200) signOuts += 1;
  }
  return signOuts;
}

/** Key rotation (JWT_PREVIOUS_SECRET_KEYS and friends) and the JWKS endpoint. */
export function keyRotationSuite(kit: SuiteKit): void {
  kit.test(
    'keys/rotation-no-sign-out',
    'clients refresh through a key rotation with 0 sign-outs; once the old key is removed its access tokens are refused',
    async () => {
      const keyA = randomSecret();
      const keyB = randomSecret();
      const before = await kit.start({ secretKey: keyA, accessTokenExpireSeconds: 3600 });
      const kidA = decodeProtectedHeader((await before.login('bob')).access).kid;
      expect(typeof kidA).toBe('string');
      const devices: Device[] = [];
      for (const who of ['alice', 'alice', 'bob'] as const) {
        const { access, refresh } = await before.login(who);
        devices.push({ access, refresh });
      }
      expect(await refreshAll(before, devices, kidA!)).toBe(0);
      const accessUnderA = devices.map((device) => device.access);

      // The restart with B signing and A still verifying, on the same store and users.
      const rotation: Partial<SessauthOptions> = {
        secretKey: keyB,
        previousSecretKeys: [keyA],
        securityStampKey: keyA,
        accessTokenExpireSeconds: 3600,
      };
      const rotated = await kit.start(rotation, { users: before.users });
      for (const access of accessUnderA) {
        const me = await rotated.client().get('/me', { bearer: access });
        expect(me.status, `an access token minted under A on the rotated server: ${me.text}`).toBe(200);
      }
      const kidB = decodeProtectedHeader((await rotated.login('bob')).access).kid;
      expect(kidB).not.toBe(kidA);
      expect(await refreshAll(rotated, devices, kidB!)).toBe(0);
      expect(await refreshAll(rotated, devices, kidB!)).toBe(0);

      // A removed: what was minted under A is refused, what was minted under B lives on.
      const removed = await kit.start({ secretKey: keyB, securityStampKey: keyA, accessTokenExpireSeconds: 3600 }, { users: before.users });
      for (const access of accessUnderA) expectError(await removed.client().get('/me', { bearer: access }), 401, 'invalid_token');
      expect(await refreshAll(removed, devices, kidB!)).toBe(0);
      const list = await removed.client().get(removed.at('/sessions/'), { bearer: devices[0]!.access });
      expect(list.status, list.text).toBe(200);
    },
  );

  kit.test(
    'keys/jwks',
    'an asymmetric server publishes its current and previous public keys at jwks.json, with no private member; HMAC answers 404',
    async () => {
      const [current, previous] = await Promise.all([es256Pair(), es256Pair()]);
      const app = await kit.start({
        algorithm: 'ES256',
        secretKey: current.privateKey,
        verifyingKey: current.publicKey,
        previousVerifyingKeys: [previous.publicKey],
        securityStampKey: randomSecret(),
      });
      const kid = decodeProtectedHeader((await app.login('alice')).access).kid;
      const client = app.client();
      for (const path of ['/jwks.json', '/.well-known/jwks.json']) {
        const answer = await client.get(app.at(path));
        expect(answer.status, answer.text).toBe(200);
        expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/);
        expect(answer.headers.get('cache-control')).not.toMatch(/no-store|private/);
        const keys = (answer.body as { keys: Record<string, unknown>[] }).keys;
        expect(keys).toHaveLength(2);
        expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid, alg: 'ES256', use: 'sig' });
        expect(keys[1]).toMatchObject({ kty: 'EC', alg: 'ES256', use: 'sig' });
        expect(keys[1]!.kid).not.toBe(kid);
        for (const key of keys) for (const member of PRIVATE_MEMBERS) expect(Object.keys(key)).not.toContain(member);
      }

      const hmac = await kit.start();
      for (const path of ['/jwks.json', '/.well-known/jwks.json']) expectError(await hmac.client().get(hmac.at(path)), 404, 'not_found');
    },
  );
}
