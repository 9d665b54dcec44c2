import type { ErrorCode } from '../errors/error-codes.js';
import type { RevokeReason } from '../events/session-events.js';
import type { Location } from '../geo/location.js';
import { keyedDigest, normaliseUsername } from '../rate-limit/account-rate-key.js';
import type { SessionRecord } from '../store/store-port.js';
import { describeUserAgent, storedUserAgent } from '../ua/describe-user-agent.js';
import type { RaisedSignal } from './risk-signals.js';
import type { SessionServices } from './session-services.js';

/** The client a request came from, as the events name it (the replaying client of a reuse). */
export interface ClientFacts {
  readonly ipAddress: string | null;
  readonly userAgent: string | undefined;
}

// Payloads read the store through `eventStore` (the engine's own, not the finished request's
// store budget); the bus bounds each build and each handler by its own deadline.

/** `login`: the new session, and whether its device and place are new among the user's other active sessions. */
export function emitLogin<U>(services: SessionServices<U>, session: SessionRecord): void {
  services.logger.info?.('session_created', { session: session.id });
  services.events.emit('login', async () => {
    const others = (await services.eventStore.listActiveSessions(session.userId, services.clock.now())).filter((other) => other.id !== session.id);
    const device = deviceOf(session);
    const place = placeOf(session.location);
    return {
      userId: session.userId,
      sessionId: session.id,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      browser: session.browser,
      location: session.location,
      isNewDevice: !others.some((other) => deviceOf(other) === device),
      isNewLocation: place === null ? null : !others.some((other) => placeOf(other.location) === place),
    };
  });
}

/**
 * `login_failed`. The submitted username is not in it by default (a password typed into the
 * username box would arrive verbatim): a keyed hash of its normalised form, which matches
 * across attempts at one account, and its length. JWT_EVENT_RAW_USERNAMES adds the name itself.
 */
export function emitLoginFailed<U>(services: SessionServices<U>, code: ErrorCode, username: unknown, ipAddress: string | null): void {
  const { options } = services;
  services.events.emit('login_failed', async () => {
    const name = typeof username === 'string' ? username.slice(0, options.maxUsernameLength) : null;
    return {
      code,
      username: name !== null && options.eventRawUsernames ? name : null,
      usernameHash:
        name === null ? null : await keyedDigest(options, options.securityStampKey, `\u0000event-username\u0000${normaliseUsername(name)}`),
      usernameLength: name === null ? null : [...name].length,
      ipAddress,
    };
  });
}

export function emitRefresh<U>(services: SessionServices<U>, userId: string, sessionId: string): void {
  services.logger.debug?.('session_refreshed', { session: sessionId });
  services.events.emit('refresh', () => ({ userId, sessionId }));
}

/** `revoke` of one session (`sessionId`) or of every active session of the user (`sessionId` null). */
export function emitRevoke<U>(services: SessionServices<U>, userId: string, sessionId: string | null, count: number, reason: RevokeReason): void {
  if (count === 0) return;
  services.logger.info?.('session_revoked', { reason, count, ...(sessionId === null ? {} : { session: sessionId }) });
  services.events.emit('revoke', () => ({ userId, sessionId, count, reason }));
}

/**
 * `reuse_detected`: the client that presented the consumed token (its address and browser,
 * from the request) and the revoked session's own device (read after the response), then its `revoke`.
 */
export function emitReuse<U>(services: SessionServices<U>, userId: string, sessionId: string, replay: ClientFacts): void {
  const userAgent = storedUserAgent(replay.userAgent);
  const replayedBy = { ipAddress: services.options.persistClientIp ? replay.ipAddress : null, userAgent, browser: describeUserAgent(userAgent) };
  services.events.emit('reuse_detected', async () => {
    const session = await services.eventStore.findSession(sessionId);
    return { userId, sessionId, ipAddress: session?.ipAddress ?? null, browser: session?.browser ?? null, replayedBy };
  });
  emitRevoke(services, userId, sessionId, 1, 'reuse');
}

/** `step_up`: the session's new proof of identity (no secret in it). */
export function emitStepUp<U>(
  services: SessionServices<U>,
  userId: string,
  sessionId: string,
  facts: { amr: readonly string[]; acr: string | null },
): void {
  services.logger.info?.('session_stepped_up', { session: sessionId });
  services.events.emit('step_up', () => ({ userId, sessionId, amr: [...facts.amr], acr: facts.acr }));
}

/** `risk_signal`: one raised signal, for the client it was raised for. */
export function emitRiskSignal<U>(
  services: SessionServices<U>,
  facts: {
    session: { id: string; userId: string };
    during: 'login' | 'refresh';
    client: { ipAddress: string | null; browser: string | null; location: Location | null };
    signal: RaisedSignal;
  },
): void {
  const { session, during, client, signal } = facts;
  services.logger.info?.('risk_signal', { session: session.id, signal: signal.signal });
  services.events.emit('risk_signal', () => ({
    userId: session.userId,
    sessionId: session.id,
    signal: signal.signal,
    during,
    ipAddress: services.options.persistClientIp ? client.ipAddress : null,
    browser: client.browser,
    location: client.location,
    distanceKm: signal.distanceKm ?? null,
    speedKmh: signal.speedKmh ?? null,
    failedLogins: signal.failedLogins ?? null,
  }));
}

function deviceOf(session: SessionRecord): string | null {
  return session.browser ?? session.userAgent;
}

function placeOf(location: Location | null): string | null {
  if (location === null) return null;
  const country = location.country_code ?? location.country;
  return country === undefined ? null : `${country}|${location.city ?? ''}`;
}
