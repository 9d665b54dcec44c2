import { describeRateLimitConformance, describeStoreConformance } from '@sessauth/conformance';
import { PrismaRateLimitStore, PrismaSessionStore } from '../../src/index.js';
import type { TestTarget } from './test-databases.js';

/**
 * The whole store contract (the 50-way rotation race x20 included), with a second app server
 * (its own client and pool) over the same tables, and the rate-limit contract, on one provider
 * through its driver adapter, on tables made by this package's migration. One test file per
 * provider, so vitest runs them side by side.
 */
export function describeConformance(target: TestTarget): void {
  describeStoreConformance(`prisma ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    return {
      store: new PrismaSessionStore(database.prisma, { ...database.options, activity: true, securityEventOutbox: true }),
      openSecondInstance: async () => {
        const other = await database.connect();
        return {
          store: new PrismaSessionStore(other.prisma, { ...database.options, activity: true, securityEventOutbox: true }),
          close: other.close,
        };
      },
      close: database.close,
    };
  });

  describeRateLimitConformance(`prisma ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    return { store: new PrismaRateLimitStore(database.prisma, database.options), close: database.close };
  });
}
