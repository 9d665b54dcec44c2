import type { SessionServices } from './session-services.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Location } from '../geo/location.js';
import type { SessionRecord } from '../store/store-port.js';
import type { RevokeReason } from '../events/session-events.js';

/** `login`: the new session, and whether its device and place are new among the user's other active sessions. */
export function emitLogin<U>(services: SessionServices<U>, session: SessionRecord): void {
  services.logger.info?.('session_created', { session: session.id });
  services.events.emit('login', async () => {
    const others = (await services.store.listActiveSessions(session.userId, services.clock.now())).filter((other) => other.id !== session.id);
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

export function emitLoginFailed<U>(services: SessionServices<U>, code: ErrorCode, username: unknown, ipAddress: string | null): void {
  services.events.emit('login_failed', () => ({
    code,
    username: typeof username === 'string' ? username.slice(0, 254) : null,
    ipAddress,
  }));
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

/** `reuse_detected` (with the revoked session's device, read after the response) and its `revoke`. */
export function emitReuse<U>(services: SessionServices<U>, userId: string, sessionId: string): void {
  services.events.emit('reuse_detected', async () => {
    const session = await services.store.findSession(sessionId);
    return { userId, sessionId, ipAddress: session?.ipAddress ?? null, browser: session?.browser ?? null };
  });
  emitRevoke(services, userId, sessionId, 1, 'reuse');
}

function deviceOf(session: SessionRecord): string | null {
  return session.browser ?? session.userAgent;
}

function placeOf(location: Location | null): string | null {
  if (location === null) return null;
  const country = location.country_code ?? location.country;
  return country === undefined ? null : `${country}|${location.city ?? ''}`;
}
