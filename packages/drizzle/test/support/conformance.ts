import { describeRateLimitConformance, describeStoreConformance } from '@sessauth/conformance';
import { DrizzleRateLimitStore, DrizzleSessionStore } from '../../src/index.js';
import type { TestTarget } from './test-databases.js';

/**
 * The whole store contract (the 50-way rotation race x20 included), with a second app server
 * over the same tables, and the rate-limit contract, on one engine, on tables created from
 * drizzle-kit's own migration SQL for this package's schema. One test file per engine, so vitest
 * runs them side by side.
 */
export function describeConformance(target: TestTarget): void {
  describeStoreConformance(`drizzle ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    const { tables } = database;
    return {
      store: new DrizzleSessionStore(database.db, { tables, activity: true, securityEventOutbox: true }),
      openSecondInstance: async () => {
        const other = await database.connect();
        return { store: new DrizzleSessionStore(other.db, { tables, activity: true, securityEventOutbox: true }), close: other.close };
      },
      close: database.close,
    };
  });

  describeRateLimitConformance(`drizzle ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    return { store: new DrizzleRateLimitStore(database.db, { tables: database.tables }), close: database.close };
  });
}
