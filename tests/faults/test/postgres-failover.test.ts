import { reachService } from '@sessauth/conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { UNAVAILABLE_BODY } from '../src/checker.js';
import { newServerSettings, startExampleServer, type ExampleServer, type ServerSettings } from '../src/example-server.js';
import { failoverRound, type FailoverShape } from '../src/postgres-cluster/failover-round.js';
import { addLosses, judgedViolations, NO_LOSS, percentile, writesLost, type LossCount } from '../src/postgres-cluster/loss-count.js';
import { findPostgresBinaries } from '../src/postgres-cluster/postgres-binaries.js';
import { PostgresPair, type ReplicationSettings } from '../src/postgres-cluster/postgres-pair.js';
import { sleep } from '../src/load.js';
import { SOAK, SQL_DEADLINE_MS } from '../src/timing.js';
import { send } from '../src/wire.js';

// Issue 26, point 4: a PostgreSQL primary and a streaming standby of the test's own
// (Debian's initdb, postgres, pg_basebackup), the example server's Kysely store on
// libpq's multi-host URL with target_session_attrs=read-write, and the primary
// SIGKILLed under load, the standby promoted. Results: FAILOVER-RESULTS-POSTGRESQL.md.

/** A few failovers per cell in `pnpm test`; at least 20 under `pnpm test:soak`. */
const FAILOVERS = SOAK ? 20 : 2;
const SHAPE: FailoverShape = { clients: 16, rate: 40, warmupMs: SOAK ? 5000 : 2000, detectionMs: 1000, settleMs: 1000 };
/** Load clients, the recovery probe, and the users of the single-request tests. */
const USERS = SHAPE.clients + 3;

interface Cell extends ReplicationSettings {
  /** The documented configuration: asserted to lose nothing. */
  readonly losesNothing: boolean;
}

const SYNC_NAMES = "synchronous_standby_names = 'FIRST 1 (node_a, node_b)'";
const CELLS: readonly Cell[] = [
  { label: 'synchronous_commit = off, asynchronous', synchronousCommit: 'off', synchronousStandby: false, losesNothing: false },
  { label: 'synchronous_commit = on, asynchronous', synchronousCommit: 'on', synchronousStandby: false, losesNothing: false },
  { label: `synchronous_commit = on, ${SYNC_NAMES}`, synchronousCommit: 'on', synchronousStandby: true, losesNothing: true },
  { label: `synchronous_commit = remote_apply, ${SYNC_NAMES}`, synchronousCommit: 'remote_apply', synchronousStandby: true, losesNothing: true },
];

const binaries = await reachService('PostgreSQL server programs (/usr/lib/postgresql/<major>/bin: initdb, postgres, pg_basebackup)', async () =>
  findPostgresBinaries(),
);

describe('PostgreSQL failover: the store follows a promoted standby, and the synchronous configuration loses nothing', () => {
  if (binaries === null) {
    it.skip('PostgreSQL server programs are absent (named in the skip line above)', () => undefined);
    return;
  }
  let pair: PostgresPair | null = null;
  let settings: ServerSettings | null = null;
  let server: ExampleServer | null = null;
  const servers: ExampleServer[] = [];
  const running = () => {
    if (pair === null || settings === null || server === null) throw new Error('the cluster or the server did not start');
    return { pair, settings, server };
  };

  beforeAll(async () => {
    pair = await PostgresPair.start(binaries);
    settings = newServerSettings(pair.url, USERS);
    server = await startExampleServer(settings);
    servers.push(server);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await pair?.close();
  }, 60_000);

  it('a server whose store reaches a read-only standby answers every write 503 (never 500), and still reads', async ({ expect }) => {
    const { pair, settings, server } = running();
    await pair.configure(CELLS[1] as Cell);
    const user = settings.users[SHAPE.clients + 1];
    if (user === undefined) throw new Error('no user for this test');
    const ip = '198.51.100.240';
    const login = await send(server.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 30_000);
    expect(login.status, login.body).toBe(200);
    const tokens = login.issued;
    if (tokens === null) throw new Error('no tokens');
    // The standby alone, without target_session_attrs: what a misconfigured URL, or a stale DNS name, would reach.
    const onStandby = await startExampleServer({ ...settings, storeUrl: pair.standby.url });
    servers.push(onStandby);
    let read = await send(onStandby.baseUrl, { method: 'GET', path: '/me', access: tokens.access, ip }, 30_000);
    for (let i = 0; i < 50 && read.status !== 200; i += 1) {
      await sleep(100);
      read = await send(onStandby.baseUrl, { method: 'GET', path: '/me', access: tokens.access, ip }, 30_000);
    }
    expect(read.status, 'the standby serves reads (the session replicated)').toBe(200);
    const writes = [
      await send(onStandby.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 30_000),
      await send(onStandby.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: tokens.refresh }, ip }, 30_000),
      await send(onStandby.baseUrl, { method: 'POST', path: '/auth/logout/', json: {}, access: tokens.access, ip }, 30_000),
    ];
    for (const answer of writes) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toEqual(UNAVAILABLE_BODY);
    }
    // Nothing was consumed: the primary still rotates the same refresh token once.
    const refresh = await send(server.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: tokens.refresh }, ip }, 30_000);
    expect(refresh.status, refresh.body).toBe(200);
    expect(onStandby.exit()).toBeNull();
    await onStandby.stop();
  }, 120_000);

  it('a synchronous standby that is down blocks commits: the deadline answers 503, and commits resume when it is back', async ({ expect }) => {
    const { pair, settings, server } = running();
    await pair.configure(CELLS[2] as Cell);
    const user = settings.users[SHAPE.clients + 2];
    if (user === undefined) throw new Error('no user for this test');
    const ip = '198.51.100.241';
    await pair.killStandby();
    const blocked = await send(server.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 60_000);
    expect(blocked.status, blocked.body).toBe(503);
    expect(JSON.parse(blocked.body)).toEqual(UNAVAILABLE_BODY);
    // Answered while the standby is still down: the store's deadline, not the standby's return, ended the wait.
    expect(pair.standby.running).toBe(false);
    await pair.restartStandby();
    let login = await send(server.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 60_000);
    for (let i = 0; i < 50 && login.status !== 200; i += 1) {
      await sleep(200);
      login = await send(server.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, 60_000);
    }
    expect(login.status, login.body).toBe(200);
  }, 180_000);

  for (const cell of CELLS) {
    it(
      `${cell.label}: ${FAILOVERS} failovers (SIGKILL of the primary, pg_promote of the standby) under load`,
      async ({ expect, signal }) => {
        const { pair, settings, server } = running();
        await pair.configure(cell);
        let losses: LossCount = NO_LOSS;
        const failures: string[] = [];
        const refreshMs: number[] = [];
        const outages: number[] = [];
        const recoveries: number[] = [];
        const promoted: number[] = [];
        const healed: number[] = [];
        const statuses: Record<string, number> = {};
        let rounds = 0;
        for (; rounds < FAILOVERS && !signal.aborted; rounds += 1) {
          const report = await failoverRound(server, pair, settings.users, SHAPE, SQL_DEADLINE_MS);
          losses = addLosses(losses, report.losses);
          refreshMs.push(...report.healthyRefreshMs);
          if (report.writeOutageMs !== null) outages.push(report.writeOutageMs);
          if (report.recoveryMs !== null) recoveries.push(report.recoveryMs);
          promoted.push(report.promotedAfterMs);
          healed.push(report.healedAfterMs);
          for (const [status, count] of Object.entries(report.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
          for (const v of judgedViolations(report.violations).slice(0, 10)) failures.push(`failover ${rounds + 1}: ${v.rule}: ${v.detail}`);
          // The store reconnected without a restart: a login and a guarded read succeeded after the heal.
          if (report.recoveryMs === null) failures.push(`failover ${rounds + 1}: no login and guarded read succeeded after the heal`);
          if (report.outageAfterRecovery > 0) failures.push(`failover ${rounds + 1}: ${report.outageAfterRecovery} answers 503 after the recovery`);
          if (report.servedByStandby > 0)
            failures.push(`failover ${rounds + 1}: ${report.servedByStandby} answers served while only the standby was up`);
        }
        const summary = [
          `[failover] PostgreSQL | ${cell.label} | ${rounds} failovers`,
          `revocations lost ${losses.revocationsLost}`,
          `rotations undone ${losses.rotationsUndone}`,
          `sessions lost ${losses.sessionsLost}`,
          `past deadline ${losses.pastDeadline}`,
          `healthy refresh p50 ${percentile(refreshMs, 0.5)} ms p99 ${percentile(refreshMs, 0.99)} ms (${refreshMs.length})`,
          `promoted ${percentile(promoted, 0.5)} ms, standby rebuilt ${percentile(healed, 0.5)} ms after the kill (medians)`,
          `writes back after ${percentile(outages, 0.5)} ms median, ${Math.max(...outages)} ms max`,
          `recovered ${percentile(recoveries, 0.5)} ms median, ${Math.max(...recoveries)} ms max after the heal`,
          Object.entries(statuses)
            .map(([status, count]) => `${status}:${count}`)
            .join(' '),
        ].join(' | ');
        console.log(summary);
        expect(failures, `the server's last lines:\n${server.output.slice(-10).join('\n')}`).toEqual([]);
        expect(rounds).toBe(FAILOVERS);
        if (cell.losesNothing) expect(writesLost(losses)).toEqual(writesLost(NO_LOSS));
        expect(server.exit()).toBeNull();
      },
      (SOAK ? 60_000 : 45_000) * FAILOVERS + 60_000,
    );
  }
});
