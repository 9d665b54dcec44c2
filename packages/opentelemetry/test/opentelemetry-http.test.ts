import type { MetricData } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  memoryStore,
  type OtelApp,
  PASSWORD,
  redisStoreIfReachable,
  sqliteStore,
  startOtelApp,
  type StoreUnderTest,
  USERNAME,
  WRONG_PASSWORD,
} from './support/otel-app.js';
import {
  counterValue,
  createTelemetryHarness,
  everyExportedText,
  histogramValue,
  type TelemetryHarness,
  useContextManager,
} from './support/telemetry-harness.js';

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

// A host runs the SDK with the async-hooks context manager (NodeSDK registers it): without one,
// no span is ever "active" and the store calls' spans could not find their parent.
let releaseContext: () => void;
beforeAll(() => {
  releaseContext = useContextManager();
});
afterAll(() => releaseContext());

// Redis when the local server answers (a loud skip otherwise).
const redisStore = await redisStoreIfReachable();
const stores: StoreUnderTest[] = [memoryStore, sqliteStore, ...(redisStore === null ? [] : [redisStore])];

describe.each(stores)('OpenTelemetry over HTTP on the $label store', (storeUnderTest) => {
  let harness: TelemetryHarness;
  let otel: OtelApp & { closeStore(): Promise<void> };
  /** Every secret the clients sent or received: none may reach an exported span or metric. */
  const secrets = new Set<string>([PASSWORD, WRONG_PASSWORD, USERNAME, '127.0.0.1']);
  let spans: ReadableSpan[];
  let metrics: MetricData[];

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${otel.app.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const login = (password: string) => post('/auth/login/', { username: USERNAME, password });
  const remember = (pair: TokenPair): TokenPair => {
    secrets.add(pair.access_token);
    secrets.add(pair.refresh_token);
    return pair;
  };

  beforeAll(async () => {
    harness = createTelemetryHarness();
    otel = await startOtelApp(storeUnderTest, harness);
    // Two wrong passwords, two good logins (sessions A and B), then a fifth attempt over the
    // throttle of 4 per minute.
    expect((await login(WRONG_PASSWORD)).status).toBe(401);
    expect((await login(WRONG_PASSWORD)).status).toBe(401);
    const a = await login(PASSWORD);
    expect(a.status).toBe(200);
    const sessionA = remember((await a.json()) as TokenPair);
    const b = await login(PASSWORD);
    expect(b.status).toBe(200);
    const sessionB = remember((await b.json()) as TokenPair);
    expect((await login(PASSWORD)).status).toBe(429);

    // A host route behind the guard.
    const me = await fetch(`${otel.app.baseUrl}/me`, { headers: { authorization: `Bearer ${sessionA.access_token}` } });
    expect(me.status).toBe(200);

    // The list, then DELETE of session B (revocation reason `delete`).
    const bearerA = { authorization: `Bearer ${sessionA.access_token}` };
    const list = await fetch(`${otel.app.baseUrl}/auth/sessions/`, { headers: bearerA });
    expect(list.status).toBe(200);
    const rows = (await list.json()) as Array<{ id: string; is_current: boolean }>;
    const other = rows.find((row) => !row.is_current);
    expect(other).toBeDefined();
    const deleted = await fetch(`${otel.app.baseUrl}/auth/sessions/${other!.id}/`, { method: 'DELETE', headers: bearerA });
    expect(deleted.status).toBe(200);
    expect(sessionB.refresh_token).not.toBe(sessionA.refresh_token);

    // A refresh, then the consumed refresh token replayed: reuse, session A revoked (`reuse`).
    const refreshed = await post('/auth/refresh/', { refresh_token: sessionA.refresh_token });
    expect(refreshed.status).toBe(200);
    remember((await refreshed.json()) as TokenPair);
    const replayed = await post('/auth/refresh/', { refresh_token: sessionA.refresh_token });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error_code: string }).error_code).toBe('token_reuse_detected');

    // The revoke events are counted by a handler that runs after the response.
    await otel.auth.eventsSettled();
    spans = harness.spans();
    metrics = await harness.metrics();
  }, 120_000);

  afterAll(async () => {
    await otel?.close();
    await harness?.shutdown();
  });

  const spansNamed = (name: string): ReadableSpan[] => spans.filter((span) => span.name === name);
  const childrenOf = (parent: ReadableSpan): ReadableSpan[] =>
    spans.filter(
      (span) => span.parentSpanContext?.spanId === parent.spanContext().spanId && span.spanContext().traceId === parent.spanContext().traceId,
    );

  it('traces each login with its route, method, status and outcome; a wrong password carries its error code', () => {
    const logins = spansNamed('sessauth.login');
    expect(logins).toHaveLength(5);
    expect(logins.map((span) => span.attributes['http.response.status_code'])).toEqual([401, 401, 200, 200, 429]);
    expect(logins.map((span) => span.attributes['sessauth.outcome'])).toEqual([
      'invalid_credentials',
      'invalid_credentials',
      'ok',
      'ok',
      'rate_limited',
    ]);
    for (const span of logins) {
      expect(span.attributes['http.route']).toBe('/auth/login/');
      expect(span.attributes['http.request.method']).toBe('POST');
      expect(span.attributes['sessauth.operation']).toBe('login');
    }
    expect(logins[0]!.attributes['error.type']).toBe('invalid_credentials');
    expect(logins[2]!.attributes['error.type']).toBeUndefined();
  });

  it("puts the login's store calls under the login's span, with the store's attributes", () => {
    const ok = spansNamed('sessauth.login').find((span) => span.attributes['sessauth.outcome'] === 'ok')!;
    const children = childrenOf(ok);
    const create = children.find((span) => span.name === 'sessauth.store.createSession');
    expect(create, `children: ${children.map((span) => span.name).join(', ')}`).toBeDefined();
    expect(create!.attributes['db.operation.name']).toBe('createSession');
    expect(create!.attributes['sessauth.store.role']).toBe('session');
    expect(create!.attributes['sessauth.store.kind']).toBe(storeUnderTest.kind);
    expect(create!.attributes['db.system.name']).toBe(storeUnderTest.system ?? undefined);
    // The per-address throttle's counter is a store call of the login too.
    const throttle = children.find((span) => span.attributes['sessauth.store.role'] === 'rate-limit');
    expect(throttle).toBeDefined();
  });

  it('traces the host guard with its session read as a child', () => {
    const guards = spansNamed('sessauth.guard');
    expect(guards).toHaveLength(1);
    expect(guards[0]!.attributes['sessauth.outcome']).toBe('ok');
    const reads = childrenOf(guards[0]!).filter((span) => span.attributes['db.operation.name'] === 'findSession');
    expect(reads).toHaveLength(1);
  });

  it('traces the list, the revocation and both refreshes, the replay with token_reuse_detected', () => {
    const list = spansNamed('sessauth.list-sessions');
    expect(list).toHaveLength(1);
    expect(list[0]!.attributes['http.route']).toBe('/auth/sessions/');
    const revoke = spansNamed('sessauth.delete-session');
    expect(revoke).toHaveLength(1);
    expect(revoke[0]!.attributes['http.route']).toBe('/auth/sessions/{id}/');
    expect(revoke[0]!.attributes['http.response.status_code']).toBe(200);
    const refreshes = spansNamed('sessauth.refresh');
    expect(refreshes.map((span) => span.attributes['sessauth.outcome'])).toEqual(['ok', 'token_reuse_detected']);
    expect(childrenOf(refreshes[0]!).some((span) => span.name === 'sessauth.store.rotateRefresh')).toBe(true);
  });

  it('counts logins by result: 2 failed, 2 ok, 1 throttled', () => {
    expect(counterValue(metrics, 'sessauth.logins', { 'sessauth.result': 'failed' })).toBe(2);
    expect(counterValue(metrics, 'sessauth.logins', { 'sessauth.result': 'ok' })).toBe(2);
    expect(counterValue(metrics, 'sessauth.logins', { 'sessauth.result': 'throttled' })).toBe(1);
  });

  it('counts the refreshes, the reuse detection and the revocations by reason', () => {
    expect(counterValue(metrics, 'sessauth.refreshes', { 'sessauth.result': 'ok' })).toBe(1);
    expect(counterValue(metrics, 'sessauth.refreshes', { 'sessauth.result': 'failed' })).toBe(1);
    expect(counterValue(metrics, 'sessauth.reuse_detections')).toBe(1);
    expect(counterValue(metrics, 'sessauth.revocations', { 'sessauth.revoke.reason': 'delete' })).toBe(1);
    expect(counterValue(metrics, 'sessauth.revocations', { 'sessauth.revoke.reason': 'reuse' })).toBe(1);
    expect(counterValue(metrics, 'sessauth.revocations')).toBe(2);
    expect(counterValue(metrics, 'sessauth.unavailable')).toBe(0);
  });

  it("records latency histograms: the guard's call, every store call, the hasher's wait and run", () => {
    expect(histogramValue(metrics, 'sessauth.guard.duration', { 'sessauth.outcome': 'ok' }).count).toBe(1);
    // One value per store-call span, and the session reads among them by name.
    const storeSpans = spans.filter((span) => span.name.startsWith('sessauth.store.'));
    expect(histogramValue(metrics, 'sessauth.store.operation.duration').count).toBe(storeSpans.length);
    expect(histogramValue(metrics, 'sessauth.store.operation.duration', { 'db.operation.name': 'createSession' }).count).toBe(2);
    // The four logins under the throttle each verified one password (the fifth was refused before hashing).
    const run = histogramValue(metrics, 'sessauth.password_hasher.run.duration');
    expect(run.count).toBe(4);
    // argon2id at OWASP's cost takes milliseconds, never nothing: the values are seconds of real work.
    expect(run.min).toBeGreaterThan(0);
    expect(histogramValue(metrics, 'sessauth.password_hasher.wait.duration').count).toBe(4);
    expect(histogramValue(metrics, 'sessauth.operation.duration', { 'sessauth.operation': 'login' }).count).toBe(5);
  });

  it('exports no password, username, token or client address in any span or metric', () => {
    const texts = everyExportedText(spans, metrics);
    expect(texts.length).toBeGreaterThan(100);
    for (const secret of secrets) {
      const leaks = texts.filter((text) => text.includes(secret));
      expect(leaks, `a secret reached the exporters`).toEqual([]);
    }
  });
});

describe('a store fault on the SQLite store', () => {
  it('counts the 503 of the guard by operation and marks the store span with the error class', async () => {
    const harness = createTelemetryHarness();
    const otel = await startOtelApp(sqliteStore, harness);
    try {
      const loggedIn = await fetch(`${otel.app.baseUrl}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: USERNAME, password: PASSWORD }),
      });
      expect(loggedIn.status).toBe(200);
      const { access_token: token } = (await loggedIn.json()) as TokenPair;
      // The database goes away under the running engine.
      await otel.closeStore();
      const me = await fetch(`${otel.app.baseUrl}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(503);
      const metrics = await harness.metrics();
      expect(counterValue(metrics, 'sessauth.unavailable', { 'sessauth.operation': 'guard' })).toBe(1);
      const guard = harness.spans().find((span) => span.name === 'sessauth.guard')!;
      expect(guard.attributes['error.type']).toBe('service_unavailable');
      expect(guard.status.code).toBe(2); // SpanStatusCode.ERROR
      const read = harness
        .spans()
        .find((span) => span.name === 'sessauth.store.findSession' && span.parentSpanContext?.spanId === guard.spanContext().spanId);
      expect(read?.attributes['error.type']).toBeTypeOf('string');
      expect(read?.status.code).toBe(2);
    } finally {
      await otel.close();
      await harness.shutdown();
    }
  }, 60_000);
});
