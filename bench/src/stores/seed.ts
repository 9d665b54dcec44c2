import type { SessionStore } from '@sessauth/core';
import type { NewSession } from '@sessauth/core/store';
import { BENCH_USER } from '../config.js';

/** The session the hand-written guards read (sessauth's own guard logs in for a fresh one). */
export const HAND_SESSION_ID = 'bench-hand-session';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A stored session as login would write it; the stamp digest is never checked for fillers. */
export function sessionRecord(id: string, userId: string, now: Date): NewSession {
  return {
    id,
    userId,
    refreshJti: `jti-${id}`,
    securityStamp: `filler-stamp-${userId}`,
    createdAt: now,
    expiresAt: new Date(now.getTime() + 14 * DAY_MS),
    ipAddress: null,
    userAgent: 'sessauth-bench',
    browser: null,
    location: null,
  };
}

/**
 * `count` sessions of distinct users through the store's own `createSession`, 64
 * at a time, plus the hand-written guards' session of the bench user.
 */
export async function seedSessions(store: SessionStore, count: number, idPrefix = 'filler'): Promise<void> {
  const now = new Date();
  await store.createSession({ session: sessionRecord(HAND_SESSION_ID, BENCH_USER.id, now), maxActiveSessions: 1000 });
  const batch = 64;
  for (let start = 0; start < count; start += batch) {
    const calls: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(count, start + batch); i += 1) {
      calls.push(store.createSession({ session: sessionRecord(`${idPrefix}-${i}`, `${idPrefix}-user-${i}`, now), maxActiveSessions: 20 }));
    }
    await Promise.all(calls);
  }
}
