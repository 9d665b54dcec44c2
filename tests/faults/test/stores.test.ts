import { describeStoreSuites } from '../src/describe-store-suite.js';
import { mariadbUnderFault } from '../src/stores/mariadb.js';
import { postgresUnderFault } from '../src/stores/postgres.js';
import { redisUnderFault } from '../src/stores/redis.js';
import { sqliteUnderFault } from '../src/stores/sqlite.js';
import type { StoreUnderFault } from '../src/stores/store-under-fault.js';

// Every store at once (see describeStoreSuites). A store whose server is
// unreachable is skipped loudly, or fails the run with SESSAUTH_REQUIRE_SERVICES=1.
const opened = await Promise.allSettled([postgresUnderFault(), mariadbUnderFault(), redisUnderFault(), sqliteUnderFault()]);
const failed = opened.find((result) => result.status === 'rejected');
if (failed !== undefined) {
  // Drop what the others created before failing the file.
  await Promise.all(opened.map((result) => (result.status === 'fulfilled' ? result.value?.close() : undefined)));
  throw failed.reason;
}
const [postgres, mariadb, redis, sqlite] = opened.map((result) => (result.status === 'fulfilled' ? result.value : null));
const named = (name: string, store: StoreUnderFault | null | undefined) => ({ name, store: store ?? null });

describeStoreSuites([named('PostgreSQL', postgres), named('MariaDB', mariadb), named('Redis', redis), named('SQLite', sqlite)]);
