import type { SessionData, SessionWhere } from '../client/prisma-like.js';

/** The user's sessions that are active at `nowMs`. */
export const activeOf = (userId: string, nowMs: number): SessionWhere => ({ userId, expiredAt: null, expiresAt: { gt: nowMs } });

/** One session that is not revoked yet (a revocation never moves `expiredAt`). */
export const notRevoked = (id: string): SessionWhere => ({ id, expiredAt: null });

export const revokeAt = (nowMs: number): SessionData => ({ expiredAt: nowMs });
