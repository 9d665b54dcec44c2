import { and, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { SessionColumns } from './tables.js';

/** What one `rotateRefresh` call compares and writes, instants in epoch milliseconds. */
export interface RotateValues {
  readonly id: string;
  readonly userId: string;
  readonly presentedJti: string;
  readonly nextJti: string;
  readonly stamp: string;
  readonly now: number;
  /** The idle timeout's cutoff; -1 when it is off (every stored instant is later). */
  readonly idleCutoff: number;
}

/** The user's sessions that are active at `nowMs`. */
export function activeOf(t: SessionColumns, userId: string, nowMs: number): SQL | undefined {
  return and(eq(t.userId, userId), isNull(t.expiredAt), gt(t.expiresAt, nowMs));
}

/**
 * The compare-and-swap's condition: id, owner, live expiry, security stamp, the current jti
 * and (idle timeout on) recent activity, all in the one UPDATE.
 */
export function rotateMatch(t: SessionColumns, v: RotateValues): SQL | undefined {
  return and(
    eq(t.id, v.id),
    eq(t.userId, v.userId),
    isNull(t.expiredAt),
    gt(t.expiresAt, v.now),
    eq(t.securityStamp, v.stamp),
    eq(t.refreshJti, v.presentedJti),
    gt(t.lastActivityAt, v.idleCutoff),
  );
}

/** What the swap writes. */
export const swapSet = (v: RotateValues) => ({ refreshJti: v.nextJti, lastActivityAt: v.now });

/** One session that is not revoked yet (a revocation never moves `expiredAt`). */
export function notRevoked(t: SessionColumns, id: string): SQL | undefined {
  return and(eq(t.id, id), isNull(t.expiredAt));
}
