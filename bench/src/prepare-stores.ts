import { SEEDED_SESSIONS, SESSION_TABLE, storeUrls, type StoreName } from './config.js';
import { seedHandRedis } from './servers/hand-guards.js';
import { analyzeTable } from './stores/analyze.js';
import { cleanUp } from './stores/cleanup.js';
import { openStore } from './stores/open-store.js';
import { seedSessions } from './stores/seed.js';

/**
 * A clean slate, then the persistent stores migrated and seeded once for the whole
 * run (5,000 sessions of distinct users plus the hand-written guards' session);
 * each sessauth server then adds its own logged-in session.
 */
export async function prepareStores(stores: readonly StoreName[], log: (line: string) => void): Promise<void> {
  await cleanUp();
  for (const name of stores.filter((s) => s !== 'memory')) {
    const opened = await openStore(name);
    try {
      await seedSessions(opened.sessions, SEEDED_SESSIONS);
      if (opened.sql !== undefined) await analyzeTable(name, opened.sql.db, SESSION_TABLE);
    } finally {
      await opened.close();
    }
    log(`seeded ${SEEDED_SESSIONS} sessions in ${name}`);
  }
  if (stores.includes('redis')) await seedHandRedis(storeUrls().redis);
}
