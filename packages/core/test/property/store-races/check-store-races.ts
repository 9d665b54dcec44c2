import fc from 'fast-check';
import type { SessionStore } from '../../../src/store/store-port.js';
import { fuzzParameters, type RunCounts } from '../kit/fuzz-settings.js';
import { callStore, CAP, LIVE_JTI, newSession, raceOperation, type RaceEvent } from './race-operations.js';

const T0 = Date.UTC(2031, 0, 1);
let users = 0;

/** True when this event revoked the target session (as far as its own answer tells). */
function revokedTarget(event: RaceEvent): boolean {
  const { op, outcome } = event;
  if (op.kind === 'expire') return outcome === true;
  if (op.kind === 'rotate' && typeof outcome === 'object' && 'status' in outcome)
    return outcome.status === 'reused' || outcome.status === 'security_changed';
  return false;
}

/**
 * `fc.scheduler` interleavings of the store's race-sensitive calls on one session and
 * its user: rotations of the live and of a stale refresh jti (some with a changed
 * security stamp), revocation of the session, revocation of all the user's sessions,
 * and logins under the cap. The scheduler picks the order in which the calls start;
 * on a real database they then overlap for real. Properties, from the logical times
 * of each start and answer:
 * - a rotation wins at most once;
 * - no rotation that started after a revocation of the session was answered wins;
 * - a revoked session stays revoked;
 * - the user never has more than the cap of active sessions, at any answer or after.
 */
export async function checkStoreRaces(name: string, store: () => SessionStore, counts: RunCounts): Promise<void> {
  const races = fc.tuple(fc.scheduler(), fc.array(raceOperation, { minLength: 2, maxLength: 8 }), fc.nat(CAP - 1));
  await fc.assert(
    fc.asyncProperty(races, async ([s, ops, others]) => {
      const sessions = store();
      const userId = `race-user-${process.pid}-${(users += 1)}`;
      const target = { ...newSession(userId, new Date(T0), LIVE_JTI) };
      await sessions.createSession({ session: target, maxActiveSessions: CAP });
      for (let i = 0; i < others; i++) await sessions.createSession({ session: newSession(userId, new Date(T0 + 1 + i)), maxActiveSessions: CAP });
      const now = new Date(T0 + 1000);
      let clock = 0;
      const events: RaceEvent[] = [];
      const capViolations: string[] = [];
      const calls = ops.map((op, index) =>
        s.schedule(Promise.resolve(), `${op.kind}#${index}`).then(async () => {
          const startedAt = (clock += 1);
          let outcome: RaceEvent['outcome'];
          try {
            outcome = await callStore(sessions, op, target, now, index);
          } catch (error) {
            outcome = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
          }
          events.push({ op, startedAt, endedAt: (clock += 1), outcome });
          const active = (await sessions.listActiveSessions(userId, new Date(now.getTime() + ops.length + 1))).length;
          if (active > CAP) capViolations.push(`${active} active after ${op.kind}#${index}`);
        }),
      );
      await s.waitFor(Promise.all(calls));

      const failures = events.filter((e) => typeof e.outcome === 'object' && 'error' in e.outcome);
      if (failures.length > 0) throw new Error(`a store call failed: ${JSON.stringify(failures[0])}`);
      const wins = events.filter(
        (e) => e.op.kind === 'rotate' && typeof e.outcome === 'object' && 'status' in e.outcome && e.outcome.status === 'consumed',
      );
      if (wins.length > 1) throw new Error(`${wins.length} rotations of one jti won`);
      const revokedAt = Math.min(...events.filter(revokedTarget).map((e) => e.endedAt));
      const lateWin = wins.find((win) => win.startedAt > revokedAt);
      if (lateWin !== undefined) throw new Error(`a rotation started at ${lateWin.startedAt} won after the session was revoked at ${revokedAt}`);
      const final = await sessions.findSession(target.id);
      if (Number.isFinite(revokedAt) && final?.expiredAt === null) throw new Error('the session was revoked, yet it is active again');
      if (capViolations.length > 0) throw new Error(`the cap of ${CAP} was exceeded: ${capViolations.join('; ')}`);
    }),
    fuzzParameters(name, counts),
  );
}
