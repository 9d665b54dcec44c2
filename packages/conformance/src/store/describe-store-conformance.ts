import type { SessionStore } from '@sessauth/core';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { activityCases } from './cases/activity-cases.js';
import { adminCases } from './cases/admin-cases.js';
import { capCases } from './cases/cap-cases.js';
import { createCases, findCases } from './cases/create-find-cases.js';
import { findSessionsCases } from './cases/find-sessions-cases.js';
import { crossInstanceCases } from './cases/cross-instance-cases.js';
import { expireAllCases, expireAllExceptCases, expireCases } from './cases/expire-cases.js';
import { idleCases } from './cases/idle-cases.js';
import { listCases } from './cases/list-cases.js';
import { rotateCases } from './cases/rotate-cases.js';
import { rotateRaceCases } from './cases/rotate-race-cases.js';
import { purgeCases, touchCases } from './cases/touch-purge-cases.js';
import { renameCases } from './cases/rename-cases.js';
import { unicodeCases } from './cases/unicode-cases.js';
import { verifyCases } from './cases/verify-cases.js';
import { stepUpCases } from './cases/step-up-cases.js';
import { dpopCases } from './cases/dpop-cases.js';
import { deviceBoundCases } from './cases/device-bound-cases.js';
import { securityEventOutboxCases } from './cases/security-event-outbox-cases.js';
import { expectAuthenticationFields } from './session-fixtures.js';
import type { StoreCaseContext } from './store-case-context.js';

/** One open store instance, and how to let go of it. */
export interface StoreInstance {
  store: SessionStore;
  close(): Promise<void>;
}

/** A store to prove, and how to let go of it after the suite. */
export interface StoreUnderTest extends StoreInstance {
  /**
   * Opens a second instance over the same backing data, as a second app server
   * would: its own connection (client, pool) and its own in-process state (caches,
   * prepared statements). With it the `cross-instance` cases run (revoke on one,
   * refused on the other; rotate on one, reuse on the other; the rotation race and
   * the cap split over both); without it they are skipped. Closed before `close`.
   */
  openSecondInstance?(): Promise<StoreInstance>;
}

/** One group of cases; name it in `skip` to leave the group out. */
export type StoreTestId =
  | 'create'
  | 'find'
  | 'find-many'
  | 'list'
  | 'rotate'
  | 'rotate-race'
  | 'idle'
  | 'expire'
  | 'expire-all'
  | 'expire-all-except'
  | 'touch'
  | 'rename'
  | 'step-up'
  | 'activity'
  | 'dpop'
  | 'device-bound'
  | 'purge'
  | 'cap'
  | 'admin'
  | 'unicode'
  | 'verify'
  | 'security-event-outbox'
  | 'cross-instance';

export interface StoreConformanceOptions {
  skip?: StoreTestId[];
  /** Concurrent `rotateRefresh` calls per race. @default 50 */
  raceSize?: number;
  /** How many times the race runs, each on a fresh session. @default 20 */
  raceRepeats?: number;
}

/** What a group needs beyond the required methods of the port; without it the group is skipped. */
type Needs = 'admin-listing' | 'batched-read' | 'second-instance' | 'verify' | 'step-up' | 'activity' | 'security-event-outbox' | 'device-bound';

const GROUPS: ReadonlyArray<readonly [StoreTestId, string, (context: StoreCaseContext) => void, Needs?]> = [
  ['create', 'createSession', createCases],
  ['find', 'findSession', findCases],
  ['find-many', 'findSessions (the batched read)', findSessionsCases, 'batched-read'],
  ['list', 'listActiveSessions', listCases],
  ['rotate', 'rotateRefresh outcomes', rotateCases],
  ['rotate-race', 'rotateRefresh under concurrency', rotateRaceCases],
  ['idle', 'rotateRefresh with an idle cutoff', idleCases],
  ['expire', 'expireSession', expireCases],
  ['expire-all', 'expireAllForUser', expireAllCases],
  ['expire-all-except', 'expireAllForUser keeping one session (exceptSessionId)', expireAllExceptCases],
  ['touch', 'touchSession', touchCases],
  ['rename', 'renameSession', renameCases],
  ['step-up', 'recordStepUp (RFC 9470 freshness)', stepUpCases, 'step-up'],
  ['activity', 'appendActivity / listActivity (the activity history)', activityCases, 'activity'],
  ['dpop', 'the DPoP key binding (dpopJkt)', dpopCases],
  ['device-bound', 'bindDeviceKey (the DBSC key binding)', deviceBoundCases, 'device-bound'],
  ['purge', 'purgeExpired', purgeCases],
  ['cap', 'maxActiveSessions on createSession', capCases],
  ['admin', 'listSessionsForAdmin', adminCases, 'admin-listing'],
  ['unicode', 'unicode and exact matching', unicodeCases],
  ['verify', 'verify (the start-up check)', verifyCases, 'verify'],
  ['security-event-outbox', 'the Shared Signals outbox (hold, release, claim, settle)', securityEventOutboxCases, 'security-event-outbox'],
  ['cross-instance', 'two instances over one backing service', crossInstanceCases, 'second-instance'],
];

/** Why a group cannot run on this store, or null when it can. */
function missing(needs: Needs | undefined, underTest: StoreUnderTest, second: StoreInstance | null): string | null {
  if (needs === 'admin-listing' && underTest.store.listSessionsForAdmin === undefined) {
    return 'the store has no listSessionsForAdmin (an optional capability)';
  }
  if (needs === 'step-up' && underTest.store.recordStepUp === undefined) return 'the store has no recordStepUp (an optional capability)';
  if (needs === 'device-bound' && underTest.store.bindDeviceKey === undefined) return 'the store has no bindDeviceKey (an optional capability)';
  if (needs === 'activity' && (underTest.store.appendActivity === undefined || underTest.store.listActivity === undefined)) {
    return 'the store has no appendActivity/listActivity (an optional capability)';
  }
  if (needs === 'security-event-outbox' && underTest.store.holdSecurityEvents === undefined) {
    return 'the store has no security event outbox (an optional capability)';
  }
  if (needs === 'batched-read' && underTest.store.findSessions === undefined) {
    return 'the store has no findSessions (an optional capability; SQLite reads synchronously)';
  }
  if (needs === 'second-instance' && second === null) return 'the store under test offers no openSecondInstance';
  if (needs === 'verify' && (underTest.store.checkSchema ?? underTest.store.verify) === undefined) {
    return 'the store has no checkSchema (an optional capability)';
  }
  return null;
}

/**
 * Registers the store-contract suite (vitest) for one `SessionStore`. Every case
 * reads state back through the port and uses fresh random user and session ids,
 * so one store instance serves the whole suite and needs no reset between cases.
 * `makeStore` resolving to `null` means the backing service is unreachable: every
 * case is skipped (pair it with `reachService`, which fails instead in CI).
 *
 * Not covered on purpose: control characters (NUL included). The core strips them
 * from the User-Agent and rejects them in claims before anything reaches a store.
 */
export function describeStoreConformance(name: string, makeStore: () => Promise<StoreUnderTest | null>, options: StoreConformanceOptions = {}): void {
  const skip = new Set(options.skip ?? []);
  const raceSize = options.raceSize ?? 50;
  const raceRepeats = options.raceRepeats ?? 20;
  if (raceSize < 2) throw new Error('raceSize must be at least 2: a race needs two callers');

  // Real databases over a pool are slow next to memory; no case asserts on time.
  describe(`store conformance: ${name}`, { timeout: 30_000 }, () => {
    let underTest: StoreUnderTest | null = null;
    let second: StoreInstance | null = null;
    beforeAll(async () => {
      underTest = await makeStore();
      second = (await underTest?.openSecondInstance?.()) ?? null;
      expectAuthenticationFields(typeof underTest?.store.recordStepUp === 'function');
    });
    afterAll(async () => {
      await second?.close();
      await underTest?.close();
    });
    beforeEach((test) => {
      if (underTest === null) test.skip(`${name}: store unavailable`);
    });

    const context: StoreCaseContext = {
      store: () => {
        if (underTest === null) throw new Error(`${name}: store unavailable`);
        return underTest.store;
      },
      secondStore: () => {
        if (second === null) throw new Error(`${name}: no second instance`);
        return second.store;
      },
      raceSize,
      raceRepeats,
    };
    for (const [id, title, register, needs] of GROUPS) {
      describe.skipIf(skip.has(id))(`${title} [${id}]`, () => {
        beforeEach((test) => {
          const reason = underTest === null ? null : missing(needs, underTest, second);
          if (reason !== null) test.skip(`${name}: ${reason}`);
        });
        register(context);
      });
    }
  });
}
