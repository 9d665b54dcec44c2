import { describeRateLimitConformance, describeStoreConformance } from '@sessauth/conformance';
import { KyselyRateLimitStore, KyselySessionStore } from '../src/index.js';
import { ALL_TARGETS, mysqlTransactionsTarget, TUNED_TARGETS } from './support/test-databases.js';

// The shared store contract, the 50-way rotation race (x20) and the rate-limit
// contract on every dialect, each on its own freshly migrated tables: over plain
// Kysely instances, and again through the optional prepared-statement helpers; and MariaDB
// answering compound statements as MySQL does, for the transactions the store takes on MySQL.
for (const target of [...ALL_TARGETS, ...TUNED_TARGETS, mysqlTransactionsTarget]) {
  describeStoreConformance(`kysely ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    const options = { tableName: database.tableName, directReads: database.directReads, activity: true };
    return {
      store: new KyselySessionStore(database.db, options),
      // A second instance (its own statement cache) over the same tables: the kit's cross-instance cases.
      openSecondInstance: async () => ({ store: new KyselySessionStore(database.db, options), close: async () => {} }),
      close: database.close,
    };
  });

  describeRateLimitConformance(`kysely ${target.label}`, async () => {
    const database = await target.open();
    if (database === null) return null;
    const store = new KyselyRateLimitStore(database.db, { tableName: database.rateLimitTableName });
    return { store, close: database.close };
  });
}
