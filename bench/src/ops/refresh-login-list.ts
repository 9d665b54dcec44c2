import { verify } from '@node-rs/argon2';
import { inProcessRequest, logIn, refresh } from '../bench-auth.js';
import type { StoreName } from '../config.js';
import { judge, type OperationRow } from '../results.js';
import { spread } from '../stats.js';
import { describeCalls } from './counting-store.js';
import { openEngine, opsUser } from './engine-fixture.js';
import { alternate, ratioSpread } from './rate.js';

export interface OpsSettings {
  readonly rounds: number;
  readonly seconds: number;
  readonly log: (line: string) => void;
}

const REFRESH_TARGETS: Partial<Record<StoreName, number>> = { redis: 5000, sqlite: 3500, mariadb: 2500, postgres: 2000 };
const CALLERS = 32;

/** POST /auth/refresh/ through the engine, 32 callers each rotating its own session's token. */
export async function refreshRow(store: StoreName, settings: OpsSettings): Promise<OperationRow> {
  const user = opsUser('refresh');
  const engine = await openEngine(store, [user]);
  try {
    const tokens: string[] = [];
    for (let i = 0; i < CALLERS; i += 1) tokens.push((await logIn(engine.auth, user.username, user.password)).refreshToken);
    let refreshes = 0;
    engine.resetCalls();
    const rates = await alternate(
      [
        {
          name: 'refresh',
          callers: CALLERS,
          once: async (caller) => {
            tokens[caller] = (await refresh(engine.auth, tokens[caller]!)).refreshToken;
            refreshes += 1;
          },
        },
      ],
      settings.rounds,
      settings.seconds,
    );
    const value = spread(rates.get('refresh')!);
    const goal = REFRESH_TARGETS[store];
    const verdict = goal === undefined ? { target: undefined, met: undefined } : judge(value.median, { min: goal });
    settings.log(`refresh ${store}: ${Math.round(value.median)}/s; store calls per refresh: ${describeCalls(engine.calls, refreshes)}`);
    return {
      operation: 'refresh (POST /auth/refresh/, in process)',
      store,
      unit: 'ops/s',
      value,
      ...verdict,
      detail: `${CALLERS} callers; store calls per refresh: ${describeCalls(engine.calls, refreshes)}`,
    };
  } finally {
    await engine.close();
  }
}

/** POST /auth/login/ against a bare argon2id verify of the same hash, 4 at a time (the libuv pool's size). */
export async function loginRow(store: StoreName, settings: OpsSettings): Promise<OperationRow> {
  const user = opsUser('login');
  const engine = await openEngine(store, [user]);
  try {
    const hash = (await engine.users.findByUsername(user.username))!.passwordHash;
    const rates = await alternate(
      [
        { name: 'login', callers: 4, once: () => logIn(engine.auth, user.username, user.password) },
        {
          name: 'argon2',
          callers: 4,
          once: async () => {
            if (!(await verify(hash, user.password))) throw new Error('argon2 verify failed');
          },
        },
      ],
      settings.rounds,
      settings.seconds,
    );
    const value = ratioSpread(rates.get('login')!, rates.get('argon2')!);
    settings.log(`login ${store}: ${value.median.toFixed(2)}x of argon2 verify (${Math.round(spread(rates.get('login')!).median)}/s)`);
    return {
      operation: 'login / raw argon2id verify',
      store,
      unit: 'x',
      value,
      ...judge(value.median, { min: 0.9 }),
      detail: `4 callers; login ${Math.round(spread(rates.get('login')!).median)}/s, argon2 verify ${Math.round(spread(rates.get('argon2')!).median)}/s`,
    };
  } finally {
    await engine.close();
  }
}

/** GET /auth/sessions/ for a user with 20 active sessions, 32 callers. */
export async function listRow(store: StoreName, settings: OpsSettings): Promise<OperationRow> {
  const user = opsUser('list');
  const engine = await openEngine(store, [user]);
  try {
    let access = '';
    for (let i = 0; i < 20; i += 1) access = (await logIn(engine.auth, user.username, user.password)).accessToken;
    const request = inProcessRequest('GET', `${engine.auth.options.prefix}/sessions/`, { authorization: `Bearer ${access}` });
    const first = await engine.auth.handle(request);
    const listed = JSON.parse(first?.body ?? '[]') as unknown[];
    if (first?.status !== 200 || listed.length !== 20) throw new Error(`session list answered ${first?.status} with ${listed.length} sessions`);
    const rates = await alternate([{ name: 'list', callers: CALLERS, once: () => engine.auth.handle(request) }], settings.rounds, settings.seconds);
    const value = spread(rates.get('list')!);
    settings.log(`list ${store}: ${Math.round(value.median)}/s`);
    return {
      operation: 'session list, 20 sessions (GET /auth/sessions/, in process)',
      store,
      unit: 'ops/s',
      value,
      target: undefined,
      met: undefined,
      detail: `${CALLERS} callers`,
    };
  } finally {
    await engine.close();
  }
}
