import { checkHistory, RECOVERY_BOUND_MS, type Violation } from './checker.js';
import type { DemoCredentials, ExampleServer } from './example-server.js';
import { History, record, type HistoryEntry } from './history.js';
import { sleep, startLoad } from './load.js';
import type { ClientTarget, VirtualClient } from './virtual-client.js';
import { send } from './wire.js';

/** A server under test with everything a scenario needs. */
export interface FaultTarget {
  readonly server: ExampleServer;
  /** One user per load client, plus one more for the recovery probe. */
  readonly users: readonly DemoCredentials[];
  /** The store's per-call deadline (the answer bound is this plus one second). */
  readonly deadlineMs: number;
}

export interface Fault {
  readonly name: string;
  /** Puts the fault in place (the load is running). */
  inject(): Promise<void>;
  /** How long the fault stays before `heal`. */
  readonly holdMs: number;
  heal(): Promise<void>;
}

export interface LoadShape {
  /** Clients available to the open-loop load (see load.ts). */
  readonly clients: number;
  /** Requests per second offered. */
  readonly rate: number;
  /** Healthy load before the fault. */
  readonly warmupMs: number;
  /** Load after the service is back, before the final checks. */
  readonly settleMs: number;
}

export interface ScenarioReport {
  readonly name: string;
  readonly violations: Violation[];
  readonly recoveryMs: number | null;
  readonly requests: number;
  /** Requests per second sent during the healthy warm-up. */
  readonly warmupPerSecond: number;
  /** Ticks of the load at which every client was waiting for an answer. */
  readonly saturated: number;
  readonly statuses: Record<string, number>;
  /** Every request and its answer (for measurements beyond the checker's). */
  readonly entries: readonly HistoryEntry[];
}

const PROBE_CLIENT = -1;

/**
 * One fault under load (the clients keep their sessions from one scenario to the
 * next, as real users do): warm up, inject, hold, heal, measure the recovery (a full
 * login and a guarded read, from a client of its own), let the load run on, stop
 * it, have every client refresh the session it believes alive, check that every
 * session ever issued is known to the store (one request per session, all at
 * once: more than the pool has connections, so a dead pooled connection would
 * show), and run the checker.
 */
export async function runScenario(target: FaultTarget, fault: Fault, shape: LoadShape, clients: readonly VirtualClient[]): Promise<ScenarioReport> {
  const history = new History();
  const client: ClientTarget = { baseUrl: target.server.baseUrl, limitMs: target.deadlineMs + 15_000 };
  const prober = target.users[shape.clients];
  if (prober === undefined) throw new Error('the scenario needs one user more than the load has clients');
  const load = startLoad(client, clients, history, { rate: shape.rate });
  let warmup: number;
  let healedAt: number;
  let recoveryMs: number | null;
  try {
    const warmupFrom = Date.now();
    await sleep(shape.warmupMs);
    warmup = load.sentSince(warmupFrom) / ((Date.now() - warmupFrom) / 1000);
    await fault.inject();
    try {
      await sleep(fault.holdMs);
    } finally {
      await fault.heal();
    }
    healedAt = Date.now();
    recoveryMs = await measureRecovery(client, prober, history, healedAt);
    await sleep(shape.settleMs);
  } finally {
    await load.stop();
  }
  await Promise.all(clients.map((c) => c.confirmAlive(client)));
  await committedChecks(client, history);
  const violations = checkHistory({
    entries: history.entries,
    deadlineMs: target.deadlineMs,
    healedAt,
    recoveryMs,
    serverExit: target.server.exit(),
  });
  const { requests, statuses } = history.summary();
  return {
    name: fault.name,
    violations,
    recoveryMs,
    requests,
    warmupPerSecond: Math.round(warmup),
    saturated: load.saturated(),
    statuses,
    entries: history.entries,
  };
}

/** Milliseconds from the heal until a login and a guarded read both succeed; null if not within the bound (plus slack). */
async function measureRecovery(client: ClientTarget, user: DemoCredentials, history: History, healedAt: number): Promise<number | null> {
  const ip = '198.51.100.250';
  while (Date.now() - healedAt < RECOVERY_BOUND_MS + 3000) {
    const login = await send(client.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, client.limitMs);
    record(history, { client: PROBE_CLIENT, kind: 'login', sid: null }, login);
    if (login.issued !== null) {
      const me = await send(client.baseUrl, { method: 'GET', path: '/me', access: login.issued.access, ip }, client.limitMs);
      record(history, { client: PROBE_CLIENT, kind: 'me', sid: login.issued.sid, expectLive: true }, me);
      if (me.status === 200) return me.end - healedAt;
    }
    await sleep(100);
  }
  return null;
}

/** Every session ever issued is known to the store: 200, or 401 `session_expired` once revoked. */
async function committedChecks(client: ClientTarget, history: History): Promise<void> {
  const ip = '198.51.100.251';
  const lastAccess = new Map<string, string>();
  for (const entry of history.entries) if (entry.issued !== null) lastAccess.set(entry.issued.sid, entry.issued.access);
  await Promise.all(
    [...lastAccess].map(async ([sid, access]) => {
      const answer = await send(client.baseUrl, { method: 'GET', path: '/me', access, ip }, client.limitMs);
      record(history, { client: PROBE_CLIENT, kind: 'committed-check', sid }, answer);
    }),
  );
}

/** One line per scenario for the test log. */
export function summaryLine(store: string, report: ScenarioReport): string {
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  return `[faults] ${store} | ${report.name} | ${report.requests} requests, warm-up ${report.warmupPerSecond} req/s, ${report.saturated} saturated ticks | recovered in ${report.recoveryMs} ms | ${statuses} | ${report.violations.length} violations`;
}
