import { logIn, refresh } from '../bench-auth.js';
import { BENCH_USER, storeUrls, type StoreName } from '../config.js';
import { judge, type OperationRow } from '../results.js';
import { spread } from '../stats.js';
import { BenchUsers, createBenchAuth } from '../bench-auth.js';
import { openStore, type OpenedStore } from '../stores/open-store.js';
import { bulkSeed } from './bulk-seed.js';
import { alternate, ratioSpread, type RateTarget } from './rate.js';
import type { OpsSettings } from './refresh-login-list.js';

const CALLERS = 32;

interface Sized {
  readonly count: number;
  readonly opened: OpenedStore;
  readonly guard: RateTarget;
  readonly rotate: RateTarget;
}

/**
 * The guard and the refresh rotation over a store holding `small` and over one holding
 * `large` sessions, side by side (two tables or key prefixes, slices alternating);
 * the goal is that the large store costs at most 1.3x the time per operation.
 */
export async function scaleRows(store: StoreName, small: number, large: number, settings: OpsSettings, redisUrl?: string): Promise<OperationRow[]> {
  const sized: Sized[] = [];
  try {
    for (const count of [small, large]) {
      const started = Date.now();
      sized.push(await openSized(store, count, redisUrl));
      settings.log(`scale ${store}: ${count.toLocaleString('en-US')} sessions stored in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    const [a, b] = sized as [Sized, Sized];
    const rates = await alternate([a.guard, b.guard, a.rotate, b.rotate], settings.rounds, settings.seconds);
    return (['guard', 'rotate'] as const).map((op) => {
      const smallRates = rates.get(`${op}-${small}`)!;
      const largeRates = rates.get(`${op}-${large}`)!;
      // Time per operation at the large size over the small one = rate ratio small/large.
      const value = ratioSpread(smallRates, largeRates);
      settings.log(`scale ${store} ${op}: ${value.median.toFixed(2)}x the time at ${large} vs ${small}`);
      return {
        operation: `${op} time per op at ${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} stored sessions`,
        store,
        unit: 'x' as const,
        value,
        ...judge(value.median, { max: 1.3 }),
        detail: `in process, ${CALLERS} callers; ${Math.round(spread(smallRates).median)}/s vs ${Math.round(spread(largeRates).median)}/s`,
      };
    });
  } finally {
    for (const s of sized) await s.opened.close();
  }
}

async function openSized(store: StoreName, count: number, redisUrl: string | undefined): Promise<Sized> {
  const naming = { sessionTable: `bench16_scale_${count}`, rateLimitTable: `bench16_scale_rl_${count}`, redisPrefix: `bench16:scale${count}:` };
  const urls = redisUrl === undefined ? storeUrls() : { ...storeUrls(), redis: redisUrl };
  const opened = await openStore(store, urls, naming);
  await bulkSeed(store, naming.sessionTable, opened.sessions, count);
  const users = await BenchUsers.create([BENCH_USER]);
  const auth = await createBenchAuth(opened.sessions, opened.rateLimits, users);
  const access: string[] = [];
  const refreshTokens: string[] = [];
  for (let i = 0; i < CALLERS; i += 1) {
    const pair = await logIn(auth, BENCH_USER.username, BENCH_USER.password);
    access.push(pair.accessToken);
    refreshTokens.push(pair.refreshToken);
  }
  const headers = access.map((token) => ({ authorization: [`Bearer ${token}`] }));
  return {
    count,
    opened,
    guard: { name: `guard-${count}`, callers: CALLERS, once: (caller) => auth.authenticate(headers[caller]!) },
    rotate: {
      name: `rotate-${count}`,
      callers: CALLERS,
      once: async (caller) => {
        refreshTokens[caller] = (await refresh(auth, refreshTokens[caller]!)).refreshToken;
      },
    },
  };
}
