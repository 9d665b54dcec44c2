import type { BenchArgs } from '../cli-args.js';
import type { LoadGenerator } from '../load/load-result.js';
import type { OperationRow } from '../results.js';
import type { Spread } from '../stats.js';
import { cpuSpread, dpopGuardRows, interleave, proofVerificationTarget } from './dpop-guard.js';
import { loginBurstRow } from './login-burst.js';
import { startPrivateRedis } from './private-redis.js';
import { listRow, loginRow, refreshRow, type OpsSettings } from './refresh-login-list.js';
import { scaleRows } from './scale.js';

/** Refresh, login, the session list, the login burst, the DPoP guard and the scale test, per chosen store. */
export async function runOperations(args: BenchArgs, generator: LoadGenerator, log: (line: string) => void): Promise<OperationRow[]> {
  const settings: OpsSettings = { rounds: Math.max(3, Math.min(args.rounds, 5)), seconds: args.opsSeconds, log };
  const rows: OperationRow[] = [];
  // One failed measurement is a row that says so, never the end of the run.
  const attempt = async (operation: string, store: string, run: () => Promise<OperationRow | OperationRow[]>) => {
    try {
      rows.push(...[await run()].flat());
    } catch (error) {
      log(`${operation} ${store}: failed: ${(error as Error).message.split('\n')[0]}`);
      rows.push({
        operation,
        store,
        unit: 'x',
        value: { median: Number.NaN, min: Number.NaN, max: Number.NaN },
        target: undefined,
        met: false,
        detail: `failed: ${(error as Error).message.split('\n')[0]}`,
      });
    }
  };
  for (const store of args.stores) await attempt('refresh', store, () => refreshRow(store, settings));
  for (const store of args.stores) await attempt('login / raw argon2id verify', store, () => loginRow(store, settings));
  for (const store of args.stores) await attempt('session list', store, () => listRow(store, settings));
  if (args.stores.includes('sqlite'))
    await attempt('guarded route during a login burst', 'sqlite', () => loginBurstRow(generator, args.connections, settings));
  // Issue 22: the guard with DPoP beside the Bearer guard, and one proof verification alone.
  let proofAlone: Spread | undefined;
  await attempt('one DPoP proof verification', 'any', async () => {
    const [slices] = [...(await interleave([await proofVerificationTarget()], settings.rounds, settings.seconds)).values()];
    proofAlone = cpuSpread(slices!);
    log(`one DPoP proof verification: ${proofAlone.median.toFixed(1)} µs CPU`);
    return {
      operation: 'one DPoP proof verification alone (jose ES256 verify + key thumbprint, in process)',
      store: 'any',
      unit: 'µs',
      value: proofAlone,
      target: undefined,
      met: undefined,
      detail: '32 callers; the library work the guard does per DPoP proof, before the `jti` record',
    };
  });
  for (const store of args.stores) await attempt('guard with DPoP', store, () => dpopGuardRows(store, settings.rounds, settings.seconds, proofAlone));
  const [small, large] = [Math.min(...args.scale), Math.max(...args.scale)];
  if (small < large) {
    for (const store of args.stores) {
      if (store !== 'redis') {
        await attempt('scale', store, () => scaleRows(store, small, large, settings));
        continue;
      }
      const redis = await startPrivateRedis();
      if (redis === null) {
        log('scale redis: skipped (no redis-server binary for a private instance)');
        continue;
      }
      try {
        await attempt('scale', store, () => scaleRows(store, small, large, settings, redis.url));
      } finally {
        await redis.stop();
      }
    }
  }
  return rows;
}
