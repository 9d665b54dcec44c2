import { expect, it } from 'vitest';
import { expectedRecord, newSessionFixture } from '../session-fixtures.js';
import { mustFind, type StoreCaseContext } from '../store-case-context.js';

/**
 * `checkSchema()` (`verify()` before the rename), the optional start-up check that `createSessauth` runs: on a store
 * ready to serve it resolves, every time, and it changes nothing. (What it says
 * about a broken schema is the store's own business: see each store's tests.)
 */
export function verifyCases({ store }: StoreCaseContext): void {
  const verify = (): Promise<void> => {
    const check = store().checkSchema ?? store().verify;
    if (check === undefined) throw new Error('this store has no checkSchema: the case should have been skipped');
    return check.call(store());
  };

  it('resolves on the store under test, and again when repeated', async () => {
    await expect(verify()).resolves.toBeUndefined();
    await expect(Promise.all([verify(), verify()])).resolves.toEqual([undefined, undefined]);
  });

  it('changes nothing: a session stored before reads back the same after', async () => {
    const session = newSessionFixture();
    await store().createSession({ session, maxActiveSessions: 10 });
    await verify();
    expect(await mustFind(store(), session.id)).toEqual(expectedRecord(session));
  });
}
