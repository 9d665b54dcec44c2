import { existsSync } from 'node:fs';
import { reachService } from '@sessauth/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { cellName, FAILOVER_LOAD, runFailoverCell, type CellResult, type FailoverCell } from '../src/failover/failover-cell.js';
import { isAvailability, rulesOf, totalLost } from '../src/failover/losses.js';
import { REDIS_CLI } from '../src/failover/redis-cluster-group.js';
import { REDIS_SERVER } from '../src/stores/redis-server.js';
import { SOAK } from '../src/timing.js';

// Issue 26: a primary, two replicas and three sentinels started here from Debian's redis-server, the
// engine in this process on the Redis store through Sentinel, the fault suite's load and history
// checker, and the primary killed (SIGKILL) or partitioned again and again. A few failovers per cell
// here; `pnpm test:soak` runs 20 per cell (the last result is in FAILOVER-RESULTS.md).
// In CI only the cells whose zero is asserted (the store's durability on): two failovers on Sentinel's
// SIGKILL path (the old primary rejoins and the next failover follows it), one in each other durable
// cell. The default cells (asynchronous replication: losses counted, not asserted) run under the soak,
// whose last rows are in FAILOVER-RESULTS.md; the whole run stays within CI's budget this way.
const FAILOVERS = SOAK ? 20 : 2;
const FEW = SOAK ? 20 : 1;

const available = await reachService(`Redis Sentinel and Cluster (${REDIS_SERVER}, ${REDIS_CLI}, servers of the test's own)`, async () => {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} not found (apt-get install redis-server)`);
  if (!existsSync(REDIS_CLI)) throw new Error(`${REDIS_CLI} not found (apt-get install redis-tools)`);
  return true;
});

const results: CellResult[] = [];
afterAll(() => {
  // The rows of FAILOVER-RESULTS.md.
  for (const r of results) {
    const l = r.losses;
    console.log(
      `| ${cellName(r.cell)} | ${r.failovers} | ${l.revocationsLost} | ${l.rotationsUndone} | ${l.sessionsLost} | ${l.lateAnswers} | ${r.refreshP50} / ${r.refreshP99} ms | ${r.requests} requests, ${Object.entries(
        r.statuses,
      )
        .map(([s, n]) => `${s}:${n}`)
        .join(' ')}, ${r.durabilityUnmet} unmet waits | ${rulesOf(r.others)} |`,
    );
  }
});

const perFailoverMs = FAILOVER_LOAD.warmupMs + FAILOVER_LOAD.settleMs + 60_000;
const cells: FailoverCell[] = [
  { topology: 'sentinel', durable: true, fault: 'kill', failovers: FAILOVERS },
  { topology: 'sentinel', durable: true, fault: 'partition', failovers: FEW },
  { topology: 'cluster', durable: true, fault: 'kill', failovers: FEW },
  // The cluster's split brain: a primary cut off from every other node (bus and replication, through
  // the partition switchboard of src/failover), the application still reaching it. Durable in CI (its
  // zero is asserted; about 45 s); the default cell and the servers' settings without the store's WAIT
  // (min-replicas-to-write 1, max lag 2 s: they bound how long the cut-off primary applies writes, they
  // do not close the window) are recorded by the soak.
  { topology: 'cluster', durable: true, fault: 'partition', failovers: FEW },
  ...(SOAK
    ? ([
        { topology: 'sentinel', durable: false, fault: 'kill', failovers: FEW },
        { topology: 'sentinel', durable: false, fault: 'partition', failovers: FEW },
        { topology: 'cluster', durable: false, fault: 'kill', failovers: FEW },
        { topology: 'cluster', durable: false, fault: 'partition', failovers: FEW },
        { topology: 'cluster', durable: false, serverOnly: true, fault: 'partition', failovers: FEW },
      ] as const)
    : []),
];

describe.skipIf(available === null)('Redis failover under load (Sentinel, Cluster): what an acknowledged write survives', () => {
  for (const cell of cells) {
    it(
      cell.durable
        ? `${cellName(cell)}: nothing acknowledged is lost, and the service is back after each failover`
        : `${cellName(cell)}: losses counted and recorded (async replication), the service back after each failover`,
      async () => {
        const result = await runFailoverCell(cell, (line) => console.log(line));
        results.push(result);
        expect(result.recoveries).toHaveLength(cell.failovers);
        expect(result.requests).toBeGreaterThan(cell.failovers * 100);
        if (cell.durable) {
          expect(result.losses, JSON.stringify(result.others.slice(0, 5))).toEqual({
            revocationsLost: 0,
            rotationsUndone: 0,
            sessionsLost: 0,
            lateAnswers: 0,
          });
          expect(totalLost(result.losses)).toBe(0);
        }
        // Every answer keeps the contract in every cell: 200/401/503 only, a 503 with the fixed body, no
        // 500. How fast the service is back after each failover is recorded (isAvailability): on a loaded
        // machine a late replica or a second failover can keep it 503 past the checker's bound.
        const contract = result.others.filter((v) => !isAvailability(v));
        expect(contract.map((v) => `failover ${v.scenario}: ${v.rule}: ${v.detail}`)).toEqual([]);
        // And the same process serves again after the last failover (no restart): a login and a guarded read.
        expect(result.finalRecoveryMs).not.toBeNull();
      },
      cell.failovers * (perFailoverMs + (cell.fault === 'partition' ? 10_000 : 0)) + 120_000,
    );
  }
});
