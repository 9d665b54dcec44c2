import fc from 'fast-check';
import type { NewSession, RotateOutcome, SessionStore } from '../../../src/store/store-port.js';

/** One race-sensitive store call of a generated race. */
export type RaceOperation =
  | { readonly kind: 'rotate'; readonly presented: 'live' | 'stale'; readonly stamp: 'same' | 'changed' }
  | { readonly kind: 'expire' }
  | { readonly kind: 'expireAll' }
  | { readonly kind: 'create' };

export const raceOperation: fc.Arbitrary<RaceOperation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('rotate' as const),
      presented: fc.constantFrom('live' as const, 'live' as const, 'stale' as const),
      stamp: fc.constantFrom('same' as const, 'same' as const, 'same' as const, 'changed' as const),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'expire' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'expireAll' as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'create' as const }) },
);

/** What one call did, with the logical times its call started and its answer arrived. */
export interface RaceEvent {
  readonly op: RaceOperation;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: RotateOutcome | boolean | number | 'created' | { readonly error: string };
}

export const STAMP = 'stamp-digest';
export const LIVE_JTI = 'jti-live';
export const CAP = 3;

let fixtures = 0;

/** A session as login would hand it to the store. */
export function newSession(userId: string, createdAt: Date, refreshJti = `jti-${(fixtures += 1)}`): NewSession {
  return {
    id: `race-${process.pid}-${(fixtures += 1)}-${Math.random().toString(36).slice(2, 10)}`,
    userId,
    refreshJti,
    securityStamp: STAMP,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 3_600_000),
    ipAddress: null,
    userAgent: null,
    browser: null,
    location: null,
  };
}

/** Runs one operation against the target session (or, for `create`, a new session of its user). */
export async function callStore(store: SessionStore, op: RaceOperation, target: NewSession, now: Date, index: number): Promise<RaceEvent['outcome']> {
  switch (op.kind) {
    case 'rotate':
      return store.rotateRefresh({
        sessionId: target.id,
        userId: target.userId,
        presentedJti: op.presented === 'live' ? LIVE_JTI : 'jti-consumed-long-ago',
        nextJti: `jti-next-${index}`,
        securityStamp: op.stamp === 'same' ? STAMP : 'a-new-stamp-digest',
        now,
      });
    case 'expire':
      return store.expireSession(target.id, target.userId, now);
    case 'expireAll':
      return store.expireAllForUser(target.userId, now);
    case 'create':
      // Each login a millisecond apart: the order of "oldest" is the order of creation.
      await store.createSession({ session: newSession(target.userId, new Date(now.getTime() + index + 1)), maxActiveSessions: CAP });
      return 'created';
  }
}
