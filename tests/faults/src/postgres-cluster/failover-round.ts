import { checkHistory, RECOVERY_BOUND_MS, type Violation } from '../checker.js';
import type { DemoCredentials, ExampleServer } from '../example-server.js';
import { History, record } from '../history.js';
import { createClients, sleep, startLoad } from '../load.js';
import type { ClientTarget } from '../virtual-client.js';
import { send } from '../wire.js';
import { countLosses, type LossCount } from './loss-count.js';
import type { PostgresPair } from './postgres-pair.js';

export interface FailoverShape {
  /** Clients of the open-loop load (fresh ones each round). */
  readonly clients: number;
  /** Requests per second offered. */
  readonly rate: number;
  /** Healthy load before the kill. */
  readonly warmupMs: number;
  /** From the kill to `pg_promote`: a failure detector's delay. */
  readonly detectionMs: number;
  /** Load after the service is back, before the audit. */
  readonly settleMs: number;
}

export interface FailoverRoundReport {
  readonly losses: LossCount;
  readonly violations: Violation[];
  /** From the heal (the new standby streaming) until a login and a guarded read succeed. */
  readonly recoveryMs: number | null;
  /** From the kill until `pg_promote` returned (the detection delay included). */
  readonly promotedAfterMs: number;
  /** From the kill until the rebuilt standby streamed again (the pair whole). */
  readonly healedAfterMs: number;
  /** From the kill until the first login or refresh sent after it succeeded. */
  readonly writeOutageMs: number | null;
  /** Latencies of the refreshes answered 200 before the kill (the healthy cost of the setting). */
  readonly healthyRefreshMs: number[];
  /**
   * Answers 200 to requests sent after the kill and answered before the promotion:
   * only the standby was up, and a store that must never use a read-only server
   * has nothing to answer with but 503. Must be 0.
   */
  readonly servedByStandby: number;
  /**
   * 503 answers to requests sent more than a second after the recovery (a login and a
   * guarded read succeeded): a dead pooled connection handed out, a store that did
   * not follow the promotion. Must be 0.
   */
  readonly outageAfterRecovery: number;
  readonly statuses: Record<string, number>;
}

const PROBE_CLIENT = -1;
/**
 * How long the probe tries after the heal. Longer than the checker's 5 s bound: after
 * a synchronous failover every client signs in again at once, and on a loaded 2-core
 * machine the argon2 burst alone can take more than that.
 */
const RECOVERY_WINDOW_MS = RECOVERY_BOUND_MS * 4;

/**
 * One failover under load: healthy load; SIGKILL of the primary (every process);
 * after `detectionMs`, `pg_promote` of the standby; the dead primary rebuilt as a
 * standby of the new one (pg_basebackup), which heals the pair; the recovery
 * measured; more load; the load stopped. Then the audit: every session ever issued
 * read with its last access token (a revoked one must stay revoked, a live one must
 * be there), and the refresh token of every session's last acknowledged rotation
 * presented again (it must be refused). The history checker judges the whole history.
 */
export async function failoverRound(
  server: ExampleServer,
  pair: PostgresPair,
  users: readonly DemoCredentials[],
  shape: FailoverShape,
  deadlineMs: number,
): Promise<FailoverRoundReport> {
  const history = new History();
  const target: ClientTarget = { baseUrl: server.baseUrl, limitMs: deadlineMs + 15_000 };
  const prober = users[shape.clients];
  if (prober === undefined) throw new Error('the round needs one user more than the load has clients');
  const clients = createClients(users, shape.clients);
  const load = startLoad(target, clients, history, { rate: shape.rate });
  let killAt: number;
  let killedAt: number;
  let promotingAt: number;
  let promotedAt: number;
  let healedAt: number;
  let recoveryMs: number | null;
  try {
    await sleep(shape.warmupMs);
    killAt = Date.now();
    await pair.killPrimary();
    killedAt = Date.now();
    await sleep(shape.detectionMs);
    promotingAt = Date.now();
    await pair.promoteStandby();
    promotedAt = Date.now();
    await pair.rebuildStandby();
    healedAt = Date.now();
    recoveryMs = await measureRecovery(target, prober, history, healedAt);
    await sleep(shape.settleMs);
  } finally {
    await load.stop();
  }
  await audit(target, history);
  const violations = checkHistory({ entries: history.entries, deadlineMs, healedAt, recoveryMs, serverExit: server.exit() });
  const writes = history.entries.filter((e) => (e.kind === 'login' || e.kind === 'refresh') && e.start > killAt && e.status === 200);
  return {
    losses: countLosses(history.entries, deadlineMs),
    violations,
    recoveryMs,
    promotedAfterMs: promotedAt - killAt,
    healedAfterMs: healedAt - killAt,
    writeOutageMs: writes.length === 0 ? null : Math.min(...writes.map((e) => e.end)) - killAt,
    healthyRefreshMs: history.entries.filter((e) => e.kind === 'refresh' && e.status === 200 && e.end < killAt).map((e) => e.end - e.start),
    outageAfterRecovery: recoveryMs === null ? 0 : history.entries.filter((e) => e.status === 503 && e.start > healedAt + recoveryMs + 1000).length,
    servedByStandby: history.entries.filter((e) => e.start > killedAt && e.end < promotingAt && e.status === 200).length,
    statuses: history.summary().statuses,
  };
}

/** Milliseconds from the heal until a login and a guarded read both succeed; null if not within the bound (plus slack). */
async function measureRecovery(target: ClientTarget, user: DemoCredentials, history: History, healedAt: number): Promise<number | null> {
  const ip = '198.51.100.250';
  while (Date.now() - healedAt < RECOVERY_WINDOW_MS) {
    const login = await send(target.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, target.limitMs);
    record(history, { client: PROBE_CLIENT, kind: 'login', sid: null }, login);
    if (login.issued !== null) {
      const me = await send(target.baseUrl, { method: 'GET', path: '/me', access: login.issued.access, ip }, target.limitMs);
      record(history, { client: PROBE_CLIENT, kind: 'me', sid: login.issued.sid, expectLive: true }, me);
      if (me.status === 200) return me.end - healedAt;
    }
    await sleep(100);
  }
  return null;
}

/**
 * Reads every session ever issued with its last access token (`committed-check`:
 * 200, or 401 `session_expired` once revoked), then presents again the refresh token
 * of each session's last acknowledged rotation (`replay`: it must be refused; a 200
 * is an undone rotation). Reads first: a refused replay revokes the session.
 */
async function audit(target: ClientTarget, history: History): Promise<void> {
  const ip = '198.51.100.251';
  const lastAccess = new Map<string, string>();
  const lastRotation = new Map<string, string>();
  for (const entry of history.entries) {
    if (entry.issued !== null) lastAccess.set(entry.issued.sid, entry.issued.access);
    if (entry.kind === 'refresh' && entry.status === 200 && entry.sid !== null && entry.presented !== null)
      lastRotation.set(entry.sid, entry.presented);
  }
  await Promise.all(
    [...lastAccess].map(async ([sid, access]) => {
      const answer = await send(target.baseUrl, { method: 'GET', path: '/me', access, ip }, target.limitMs);
      record(history, { client: PROBE_CLIENT, kind: 'committed-check', sid }, answer);
    }),
  );
  await Promise.all(
    [...lastRotation].map(async ([sid, presented]) => {
      const answer = await send(target.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: presented }, ip }, target.limitMs);
      record(history, { client: PROBE_CLIENT, kind: 'replay', sid, presented }, answer);
    }),
  );
}
