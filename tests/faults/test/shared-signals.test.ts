import { generateKeyPairSync } from 'node:crypto';
import { freePort } from '@sessauth/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { newServerSettings, startExampleServer, type DemoCredentials, type ExampleServer, type ServerSettings } from '../src/example-server.js';
import { CREDENTIAL_CHANGE, type ReceivedSet, SESSION_REVOKED, type SetReceiver, startSetReceiver, VERIFICATION } from '../src/set-receiver.js';
import { type FreshStore, SSF_STORE_TARGETS } from '../src/ssf-stores.js';
import { sidOf } from '../src/wire.js';

// The Shared Signals transmitter end to end (docs/shared-signals.md): the example server on a
// real store pushes CAEP SETs to a receiver written from the RFCs (src/set-receiver.ts), which
// verifies each against the JWK set it fetches over HTTP.

const AUDIENCE = 'https://receiver.test';
const RECEIVER_AUTH = 'Bearer receiver-credential-0123456789';
const ADMIN: DemoCredentials = { username: 'ssf-admin', password: 'admin-password-0123456789' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function es256Pair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

interface Transmitter {
  readonly settings: ServerSettings;
  readonly issuer: string;
}

async function transmitterSettings(store: FreshStore, receiverPort: number): Promise<Transmitter> {
  const port = await freePort();
  const keys = es256Pair();
  const issuer = `http://127.0.0.1:${port}`;
  const base = newServerSettings(store.url, 1);
  const settings: ServerSettings = {
    ...base,
    port,
    users: [...base.users, ADMIN],
    env: {
      SESSAUTH_ADMIN_USERS: ADMIN.username,
      JWT_ALGORITHM: 'ES256',
      JWT_SECRET_KEY: keys.privateKey,
      JWT_VERIFYING_KEY: keys.publicKey,
      JWT_SSF_TRANSMITTER: 'true',
      JWT_SSF_ISSUER: issuer,
      JWT_SSF_RECEIVERS: JSON.stringify([
        { streamId: 'receiver-1', endpointUrl: `http://127.0.0.1:${receiverPort}/events`, audience: AUDIENCE, authorizationHeader: RECEIVER_AUTH },
      ]),
      // Fast retries for the test; the defaults are seconds to minutes.
      JWT_SSF_RETRY_BASE_MILLISECONDS: '100',
      JWT_SSF_RETRY_MAX_MILLISECONDS: '1000',
      JWT_SSF_POLL_INTERVAL_MILLISECONDS: '200',
      JWT_SSF_PUSH_TIMEOUT_MILLISECONDS: '2000',
      JWT_SSF_MAX_DELIVERY_ATTEMPTS: '100',
    },
  };
  // The admin is a demo user too: the example reads every user from SESSAUTH_DEMO_USERS.
  return { settings, issuer };
}

async function start(settings: ServerSettings): Promise<ExampleServer> {
  const server = await startExampleServer(settings);
  cleanups.push(() => server.stop());
  return server;
}

async function call(server: ExampleServer, method: string, path: string, options: { token?: string; json?: unknown } = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}

/** The `sub` of a token (the user id the transmitter names), read without verifying it. */
function subOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;
}

async function login(server: ExampleServer, user: DemoCredentials): Promise<{ access: string; refresh: string; sid: string }> {
  const answer = await call(server, 'POST', '/auth/login/', { json: { username: user.username, password: user.password } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const access = answer.body?.access_token as string;
  return { access, refresh: answer.body?.refresh_token as string, sid: sidOf(access) ?? '' };
}

async function until(what: string, check: () => boolean, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a SET says, for comparing sets of events regardless of order and jti. */
function summary(set: ReceivedSet): string {
  const subject = set.subject as { format: string; sub?: string; session?: { id: string }; user?: { sub: string } };
  const who = subject.format === 'complex' ? `session:${subject.session?.id}` : subject.format === 'iss_sub' ? `user:${subject.sub}` : subject.format;
  const reason = (set.event.reason_admin as { en?: string } | undefined)?.en?.split(':')[0] ?? '';
  const kind = set.eventType === SESSION_REVOKED ? 'revoked' : set.eventType === CREDENTIAL_CHANGE ? 'credential' : 'verification';
  return `${kind} ${who} ${reason} ${String(set.event.initiating_entity ?? '')}`.trim();
}

async function receiverFor(port: number, transmitter: Transmitter, forced?: Readonly<Record<number, 503 | 400>>): Promise<SetReceiver> {
  const receiver = await startSetReceiver({
    port,
    metadataUrl: `${transmitter.issuer}/auth/.well-known/ssf-configuration`,
    issuer: transmitter.issuer,
    audience: AUDIENCE,
    authorization: RECEIVER_AUTH,
    ...(forced === undefined ? {} : { forced }),
  });
  cleanups.push(() => receiver.close());
  return receiver;
}

for (const target of SSF_STORE_TARGETS) {
  describe(`Shared Signals transmitter on ${target.label}`, () => {
    it('pushes a verified CAEP SET for every revocation and the password change; a 503 and a 400 invalid_key are retried with the same jti', async () => {
      const store = await target.open();
      if (store === null) return;
      cleanups.push(() => store.close());
      const receiverPort = await freePort();
      const transmitter = await transmitterSettings(store, receiverPort);
      const receiver = await receiverFor(receiverPort, transmitter, { 1: 503, 2: 400 });
      const server = await start(transmitter.settings);
      const user = transmitter.settings.users[0]!;

      const [s1, s2, s3, s4, s5] = [
        await login(server, user),
        await login(server, user),
        await login(server, user),
        await login(server, user),
        await login(server, user),
      ];
      const userId = subOf(s1!.access);
      expect((await call(server, 'POST', '/auth/logout/', { token: s1!.access })).status).toBe(200);
      expect((await call(server, 'DELETE', `/auth/sessions/${s2!.sid}/`, { token: s3!.access })).status).toBe(200);
      expect((await call(server, 'POST', '/auth/refresh/', { json: { refresh_token: s3!.refresh } })).status).toBe(200);
      // The consumed refresh token again: reuse, the session is revoked.
      expect((await call(server, 'POST', '/auth/refresh/', { json: { refresh_token: s3!.refresh } })).status).toBe(401);
      expect((await call(server, 'POST', '/auth/logout/others/', { token: s4!.access })).status).toBe(200);
      const newPassword = 'a-brand-new-password-42';
      const changed = await call(server, 'POST', '/me/password', {
        token: s4!.access,
        json: { current_password: user.password, new_password: newPassword },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const s6 = await login(server, { ...user, password: newPassword });
      expect((await call(server, 'POST', '/auth/logout/all/', { token: s6.access })).status).toBe(200);

      const expected = [
        `revoked session:${s1!.sid} logout user`,
        `revoked session:${s2!.sid} delete user`,
        `revoked session:${s3!.sid} reuse policy`,
        `revoked session:${s5!.sid} logout_others user`,
        `credential user:${userId}  user`,
        `revoked user:${userId} invalidate_all user`,
        `revoked user:${userId} logout_all user`,
      ];
      await until('every SET', () => receiver.accepted.length >= expected.length);
      expect(receiver.violations).toEqual([]);
      expect(receiver.accepted.map(summary).sort()).toEqual([...expected].sort());
      // The subjects name our issuer and the user; the session ids are the tokens' `sid`.
      for (const set of receiver.accepted) {
        const subject = set.subject as { format: string; iss?: string; user?: { iss: string; sub: string } };
        expect(subject.format === 'complex' ? subject.user : subject).toMatchObject({ format: 'iss_sub', iss: transmitter.issuer, sub: userId });
      }
      // The first two deliveries were refused (503, then 400 invalid_key) and sent again: the
      // receiver saw those jtis twice (or more), with the very same token (else a violation).
      const repeated = [...receiver.deliveries.values()].filter((count) => count >= 2).length;
      expect(repeated).toBeGreaterThanOrEqual(1);
      expect([...receiver.deliveries.keys()].sort()).toEqual(receiver.accepted.map((set) => set.jti).sort());

      // The SSF endpoints: metadata to anyone, the streams to an admin only.
      const metadata = await call(server, 'GET', '/auth/.well-known/ssf-configuration');
      expect(metadata.status).toBe(200);
      expect(metadata.body).toMatchObject({
        spec_version: '1_0',
        issuer: transmitter.issuer,
        jwks_uri: `${transmitter.issuer}/auth/jwks.json`,
        delivery_methods_supported: ['urn:ietf:rfc:8935'],
        configuration_endpoint: `${transmitter.issuer}/auth/ssf/streams`,
        status_endpoint: `${transmitter.issuer}/auth/ssf/status`,
        verification_endpoint: `${transmitter.issuer}/auth/ssf/verify`,
      });
      const admin = await login(server, ADMIN);
      const someone = await login(server, { ...user, password: newPassword });
      expect((await call(server, 'GET', '/auth/ssf/streams?stream_id=receiver-1')).status).toBe(401);
      expect((await call(server, 'GET', '/auth/ssf/streams?stream_id=receiver-1', { token: someone.access })).status).toBe(403);
      const stream = await call(server, 'GET', '/auth/ssf/streams?stream_id=receiver-1', { token: admin.access });
      expect(stream.status).toBe(200);
      expect(stream.body).toMatchObject({
        stream_id: 'receiver-1',
        iss: transmitter.issuer,
        aud: AUDIENCE,
        delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: `http://127.0.0.1:${receiverPort}/events` },
      });
      expect(JSON.stringify(stream.body)).not.toContain('receiver-credential');
      expect((await call(server, 'GET', '/auth/ssf/streams?stream_id=nope', { token: admin.access })).status).toBe(404);
      expect((await call(server, 'GET', '/auth/ssf/status?stream_id=receiver-1', { token: admin.access })).body).toEqual({
        stream_id: 'receiver-1',
        status: 'enabled',
      });
      expect(
        (await call(server, 'POST', '/auth/ssf/verify', { token: admin.access, json: { stream_id: 'receiver-1', state: 'state-42' } })).status,
      ).toBe(204);
      await until('the verification event', () => receiver.accepted.some((set) => set.eventType === VERIFICATION));
      expect(receiver.accepted.find((set) => set.eventType === VERIFICATION)?.event).toEqual({ state: 'state-42' });
      expect(receiver.violations).toEqual([]);
      // Nothing secret in the server's log lines: no token, no receiver credential.
      const log = server.output.join('\n');
      expect(log).not.toContain('receiver-credential');
      for (const set of receiver.accepted) expect(log).not.toContain(set.raw);
    });

    it('a server SIGKILLed before delivery loses nothing: a new process on the same store delivers every event, each jti with one token', async () => {
      const store = await target.open();
      if (store === null) return;
      cleanups.push(() => store.close());
      // Nobody listens on the receiver's port while the first process runs.
      const receiverPort = await freePort();
      const transmitter = await transmitterSettings(store, receiverPort);
      const first = await start(transmitter.settings);
      const user = transmitter.settings.users[0]!;
      const sessions = [await login(first, user), await login(first, user), await login(first, user), await login(first, user)];
      for (const session of sessions.slice(0, 3)) expect((await call(first, 'POST', '/auth/logout/', { token: session.access })).status).toBe(200);
      const kept = sessions[3]!;
      const changed = await call(first, 'POST', '/me/password', {
        token: kept.access,
        json: { current_password: user.password, new_password: 'another-new-password-7' },
      });
      expect(changed.status).toBe(200);
      // The first process did try (and found nobody) before it dies.
      await until('a failed push', () => first.output.some((line) => line.includes('ssf_event_retry')));
      process.kill(first.pid, 'SIGKILL');
      await until('the first process to die', () => first.exit() !== null, 20_000);

      const receiver = await receiverFor(receiverPort, transmitter);
      await start(transmitter.settings);
      const expected = [
        ...sessions.slice(0, 3).map((session) => `revoked session:${session.sid} logout user`),
        `credential user:${subOf(kept.access)}  user`,
        `revoked user:${subOf(kept.access)} invalidate_all user`,
      ];
      await until('every SET after the restart', () => receiver.accepted.length >= expected.length);
      expect(receiver.violations).toEqual([]);
      expect(receiver.accepted.map(summary).sort()).toEqual([...expected].sort());
      // Each event exactly once by jti (a redelivery would carry the same jti and token).
      expect(new Set(receiver.accepted.map((set) => set.jti)).size).toBe(expected.length);
    });
  });
}
