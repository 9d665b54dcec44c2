import type { SessionRecord } from '../store/store-port.js';

/** The seed's two states: active until revoked (`expiredAt`) or past its natural end. */
export function isActive(session: SessionRecord, now: Date): boolean {
  return session.expiredAt === null && session.expiresAt.getTime() > now.getTime();
}

/**
 * The idle cutoff at `now` (JWT_SESSION_IDLE_SECONDS): a session whose `lastActivityAt` is at
 * or before it is idle. Undefined when the idle timeout is off.
 */
export function idleCutoff(idleSeconds: number, now: Date): Date | undefined {
  return idleSeconds > 0 ? new Date(now.getTime() - idleSeconds * 1000) : undefined;
}

/** No activity for the idle timeout: over, like an expired session (the guard and the list agree). */
export function isIdle(session: SessionRecord, now: Date, idleSeconds: number): boolean {
  const cutoff = idleCutoff(idleSeconds, now);
  return cutoff !== undefined && session.lastActivityAt.getTime() <= cutoff.getTime();
}
