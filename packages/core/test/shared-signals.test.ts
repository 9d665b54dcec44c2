import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessauth } from '../src/engine/create-sessauth.js';
import { IntegrationError, SettingsError } from '../src/errors/sessauth-error.js';
import { openApiDocument } from '../src/openapi/openapi-document.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { settingsFromEnv } from '../src/options/settings-from-env.js';
import { retryDelayMilliseconds } from '../src/ssf/delivery-timing.js';
import { createOutboxDispatcher } from '../src/ssf/outbox-dispatcher.js';
import { createSecurityEventWriter } from '../src/ssf/security-event-writer.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import type { SessionStore } from '../src/store/store-port.js';
import type { Clock } from '../src/time/clock.js';
import { createTokenService } from '../src/tokens/token-service.js';
import { createHarness, sessauthRequest, silentLogger, testUsers } from './helpers/sessauth-harness.js';
import { pemPair } from './helpers/pem-keys.js';

// The transmitter's rules in one process: off by default, refused when misconfigured, the
// recovery of held rows, dead letters. The receiver over HTTP, the stores and the crash are in
// tests/faults/test/shared-signals.test.ts.

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A push endpoint answering each POST with the next status of `answers` (the last one repeats). */
async function endpoint(answers: readonly [number, object?][]): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      const [status, json] = answers[Math.min(bodies.length - 1, answers.length - 1)]!;
      res
        .writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' })
        .end(json === undefined ? undefined : JSON.stringify(json));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, bodies };
}

async function transmitterOptions(url: string, extra: Partial<SessauthOptions> = {}): Promise<SessauthOptions> {
  const keys = await pemPair('p256');
  return {
    secretKey: keys.privateKey,
    verifyingKey: keys.publicKey,
    algorithm: 'ES256',
    issuer: 'https://issuer.test',
    audience: 'sessauth-test',
    ssfTransmitter: true,
    ssfIssuer: 'https://auth.example',
    ssfReceivers: [{ streamId: 'r1', endpointUrl: url, audience: 'https://receiver.test' }],
    ssfRetryBaseMilliseconds: 1000,
    ssfRetryMaxMilliseconds: 60_000,
    ssfPollIntervalMilliseconds: 3_600_000,
    ...extra,
  };
}

function settingsError(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('expected a SettingsError');
}

function movableClock(start: number): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

describe('Shared Signals transmitter: off by default', () => {
  it('serves no SSF path, describes none and has no control, when JWT_SSF_TRANSMITTER is not set', async () => {
    const { auth } = await createHarness();
    expect(auth.options.ssfTransmitter).toBe(false);
    expect(auth.securityEvents).toBeUndefined();
    const response = await auth.handle(sessauthRequest({ path: '/auth/.well-known/ssf-configuration' }));
    expect(response?.status).toBe(404);
    expect(JSON.stringify(openApiDocument(auth.openApiSettings))).not.toContain('ssf');
  });
});

describe('Shared Signals transmitter: refused at start-up when misconfigured', () => {
  it('an HMAC key: the error names the setting and says why an asymmetric key is needed', () => {
    const error = settingsError(() =>
      resolveOptions({
        secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
        issuer: 'i',
        audience: 'a',
        ssfTransmitter: true,
        ssfIssuer: 'https://a.example',
      }),
    );
    expect(error.setting).toBe('JWT_SSF_TRANSMITTER');
    expect(error.message).toMatch(/asymmetric JWT_ALGORITHM/);
  });

  it('no issuer URL, a plain-http receiver off loopback, a malformed receiver list', async () => {
    const base = await transmitterOptions('https://receiver.example/events');
    expect(settingsError(() => resolveOptions({ ...base, ssfIssuer: undefined })).setting).toBe('JWT_SSF_ISSUER');
    const plain = { ...base, ssfReceivers: [{ streamId: 'r1', endpointUrl: 'http://receiver.example/events', audience: 'x' }] };
    expect(settingsError(() => resolveOptions(plain)).setting).toBe('JWT_SSF_RECEIVERS');
    const broken = {
      ...settingsFromEnv({ JWT_SSF_RECEIVERS: '[{"streamId":' }),
      secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
      issuer: 'i',
      audience: 'a',
    };
    expect(settingsError(() => resolveOptions(broken)).setting).toBe('JWT_SSF_RECEIVERS');
    const header = {
      ...base,
      ssfReceivers: [{ streamId: 'r1', endpointUrl: 'https://r.example/', audience: 'x', authorizationHeader: 'a\r\nX: y' }],
    };
    expect(settingsError(() => resolveOptions(header)).message).toMatch(/printable ASCII/);
  });

  it('reads the receivers from JWT_SSF_RECEIVERS (JSON)', () => {
    const read = settingsFromEnv({
      JWT_SSF_RECEIVERS: JSON.stringify([
        { streamId: 'r1', endpointUrl: 'https://r.example/events', audience: 'https://r.example', events: ['session-revoked'] },
      ]),
    });
    const receivers = resolveOptions({ ...read, secretKey: 'a-test-secret-that-is-long-enough-for-hs256!', issuer: 'i', audience: 'a' }).ssfReceivers;
    expect(receivers).toEqual([
      { streamId: 'r1', endpointUrl: 'https://r.example/events', audience: 'https://r.example', events: ['session-revoked'] },
    ]);
  });

  it('a store without the outbox operations: createSessauth rejects naming them', async () => {
    const memory = new MemorySessionStore();
    const bare: SessionStore = {
      createSession: (input) => memory.createSession(input),
      findSession: (id) => memory.findSession(id),
      listActiveSessions: (userId, now) => memory.listActiveSessions(userId, now),
      rotateRefresh: (input) => memory.rotateRefresh(input),
      expireSession: (id, userId, now) => memory.expireSession(id, userId, now),
      expireAllForUser: (userId, now, options) => memory.expireAllForUser(userId, now, options),
      renameSession: (id, userId, name, now) => memory.renameSession(id, userId, name, now),
      touchSession: (id, now) => memory.touchSession(id, now),
      purgeExpired: (now) => memory.purgeExpired(now),
    };
    const options = await transmitterOptions('https://receiver.example/events');
    await expect(createSessauth({ options, store: bare, users: testUsers, logger: silentLogger })).rejects.toThrow(IntegrationError);
    await expect(createSessauth({ options, store: bare, users: testUsers, logger: silentLogger })).rejects.toThrow(/holdSecurityEvents/);
  });
});

describe('Shared Signals outbox: recovery and dead letters', () => {
  async function parts(url: string, extra: Partial<SessauthOptions> = {}) {
    const options = resolveOptions(await transmitterOptions(url, extra));
    const store = new MemorySessionStore();
    const clock = movableClock(Date.UTC(2030, 0, 1));
    const tokens = await createTokenService(options, clock);
    const logger = {
      lines: [] as string[],
      warn: (e: string, f?: object) => logger.lines.push(`${e} ${JSON.stringify(f)}`),
      error: (e: string, f?: object) => logger.lines.push(`${e} ${JSON.stringify(f)}`),
    };
    const dispatcher = createOutboxDispatcher({ options, outbox: store, store, clock, logger });
    const writer = createSecurityEventWriter({
      options,
      outbox: store,
      sign: (claims) => tokens.signSecurityEvent(claims),
      clock,
      onReady: () => undefined,
    });
    return { options, store, clock, dispatcher, writer, logger };
  }

  async function newSession(store: MemorySessionStore, at: Date, id: string) {
    await store.createSession({
      session: {
        id,
        userId: 'u1',
        refreshJti: `j-${id}`,
        securityStamp: 's',
        createdAt: at,
        expiresAt: new Date(at.getTime() + 86_400_000),
        ipAddress: null,
        userAgent: null,
        browser: null,
        location: null,
      },
      maxActiveSessions: 10,
    });
  }

  it('a held batch whose release never came: sent after the lease when the session did end, dropped when it is still active', async () => {
    const receiver = await endpoint([[202]]);
    const { store, clock, dispatcher, writer } = await parts(receiver.url);
    await dispatcher.stop();
    const now = clock.now();
    await newSession(store, now, 'ended');
    await newSession(store, now, 'alive');
    // Both held as a process would before revoking, then it "dies": no release.
    await writer.hold([{ event: 'session-revoked', userId: 'u1', sessionId: 'ended', reason: 'logout', initiatingEntity: 'user', at: now }]);
    await writer.hold([{ event: 'session-revoked', userId: 'u1', sessionId: 'alive', reason: 'logout', initiatingEntity: 'user', at: now }]);
    await store.expireSession('ended', 'u1', now);
    expect(await dispatcher.deliverDue()).toBe(0);
    expect(receiver.bodies).toEqual([]);
    clock.advance(60_000);
    expect(await dispatcher.deliverDue()).toBe(2);
    expect(receiver.bodies).toHaveLength(1);
    const claims = JSON.parse(Buffer.from(receiver.bodies[0]!.split('.')[1]!, 'base64url').toString()) as { sub_id: { session: { id: string } } };
    expect(claims.sub_id.session.id).toBe('ended');
    clock.advance(3_600_000);
    expect(await dispatcher.deliverDue()).toBe(0);
  });

  it('400 invalid_audience is dead-lettered at once; 503 is retried with growing waits until the attempts run out; nothing secret is logged', async () => {
    const refusing = await endpoint([[400, { err: 'invalid_audience', description: 'not me' }]]);
    const first = await parts(refusing.url);
    await first.dispatcher.stop();
    await first.writer.record([{ event: 'credential-change', userId: 'u1', initiatingEntity: 'user', at: first.clock.now() }]);
    expect(await first.dispatcher.deliverDue()).toBe(1);
    expect(refusing.bodies).toHaveLength(1);
    first.clock.advance(86_400_000);
    expect(await first.dispatcher.deliverDue()).toBe(0);
    expect(first.logger.lines.some((line) => line.startsWith('ssf_event_dead_lettered') && line.includes('http_400:invalid_audience'))).toBe(true);

    const down = await endpoint([[503]]);
    const second = await parts(down.url, { ssfMaxDeliveryAttempts: 3 });
    await second.dispatcher.stop();
    await second.writer.record([{ event: 'credential-change', userId: 'u1', initiatingEntity: 'user', at: second.clock.now() }]);
    expect(await second.dispatcher.deliverDue()).toBe(1);
    // Not due again before the first backoff (at least half the 1 s base).
    second.clock.advance(400);
    expect(await second.dispatcher.deliverDue()).toBe(0);
    for (let attempt = 2; attempt <= 3; attempt += 1) {
      second.clock.advance(10_000);
      expect(await second.dispatcher.deliverDue()).toBe(1);
    }
    second.clock.advance(86_400_000);
    expect(await second.dispatcher.deliverDue()).toBe(0);
    expect(down.bodies).toHaveLength(3);
    // Every attempt sent the same bytes (the same jti).
    expect(new Set(down.bodies).size).toBe(1);
    const log = second.logger.lines.join('\n');
    expect(log).toMatch(/ssf_event_dead_lettered .*"attempts":3/);
    expect(log).not.toContain(down.bodies[0]!);
  });

  it('the retry wait doubles from the base, is capped, and is jittered within its upper half', async () => {
    const options = resolveOptions(
      await transmitterOptions('https://r.example/', { ssfRetryBaseMilliseconds: 1000, ssfRetryMaxMilliseconds: 10_000 }),
    );
    expect(retryDelayMilliseconds(options, 1, () => 0)).toBe(500);
    expect(retryDelayMilliseconds(options, 1, () => 1)).toBe(1000);
    expect(retryDelayMilliseconds(options, 3, () => 1)).toBe(4000);
    expect(retryDelayMilliseconds(options, 50, () => 1)).toBe(10_000);
    expect(retryDelayMilliseconds(options, 50, () => 0)).toBe(5000);
  });
});
