import { BENCH_USER } from '../config.js';
import type { LoadGenerator } from '../load/load-result.js';
import { startServer } from '../load/server-process.js';
import { judge, type OperationRow } from '../results.js';
import { spread } from '../stats.js';
import { ratioSpread } from './rate.js';
import type { OpsSettings } from './refresh-login-list.js';

const BURST_CALLERS = 8;

/**
 * The guarded route of Express + sessauth on SQLite under wrk, alone and then while
 * 8 clients log in back to back over HTTP on the same server (argon2id on the libuv
 * pool), alternating per round. The ratio burst/idle is taken within each round.
 */
export async function loginBurstRow(generator: LoadGenerator, connections: number, settings: OpsSettings): Promise<OperationRow> {
  const server = await startServer('express/sessauth-sqlite');
  try {
    const spec = { url: server.url, headers: server.headers, connections, durationSeconds: settings.seconds };
    const loginUrl = server.url.replace(/\/me$/, '/auth/login/');
    const body = JSON.stringify({ username: BENCH_USER.username, password: BENCH_USER.password });
    await generator.run({ ...spec, durationSeconds: 1 });
    const idle: number[] = [];
    const burst: number[] = [];
    let logins = 0;
    let failures = 0;
    for (let round = 0; round < settings.rounds; round += 1) {
      idle.push((await generator.run(spec)).requestsPerSecond);
      let running = true;
      const loop = async () => {
        while (running) {
          const response = await fetch(loginUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await response.arrayBuffer();
          if (response.status === 200) logins += 1;
          else failures += 1;
        }
      };
      const loops = Array.from({ length: BURST_CALLERS }, loop);
      const during = await generator.run(spec);
      running = false;
      await Promise.all(loops);
      if (during.failures > 0) failures += during.failures;
      burst.push(during.requestsPerSecond);
    }
    const value = ratioSpread(burst, idle);
    const loginRate = logins / (settings.rounds * settings.seconds);
    settings.log(`guard during a login burst: ${value.median.toFixed(2)}x of idle (${Math.round(loginRate)} logins/s)`);
    return {
      operation: 'guarded route during a login burst / idle',
      store: 'sqlite',
      unit: 'x',
      value,
      ...judge(value.median, { min: 0.5 }),
      detail: `Express, wrk ${connections} connections${failures > 0 ? ` (${failures} requests failed or timed out)` : ''}; idle ${Math.round(spread(idle).median)} req/s, burst ${Math.round(spread(burst).median)} req/s; ${BURST_CALLERS} login clients, about ${Math.round(loginRate)} logins/s`,
    };
  } finally {
    await server.stop();
  }
}
