import type { SessionRecord } from '../store/store-port.js';

/** The seed's two states: active until revoked (`expiredAt`) or past its natural end. */
export function isActive(session: SessionRecord, now: Date): boolean {
  return session.expiredAt === null && session.expiresAt.getTime() > now.getTime();
}
