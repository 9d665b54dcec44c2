import type { HistoryEntry, OperationKind } from './history.js';

/** The only body a 503 may have, on every store. */
export const UNAVAILABLE_BODY = { error_code: 'service_unavailable', message: 'The service is temporarily unavailable.' };

export interface CheckInput {
  readonly entries: readonly HistoryEntry[];
  /** The store's deadline for one call: every answer must come within it plus one second. */
  readonly deadlineMs: number;
  /** When the fault was healed; null for a run without a fault (the races). */
  readonly healedAt: number | null;
  /** How long after the heal a full login and a guarded read succeeded again; null: never. */
  readonly recoveryMs: number | null;
  /** How the server process ended, or null while it runs. */
  readonly serverExit: unknown;
}

export interface Violation {
  readonly rule: string;
  readonly detail: string;
  /**
   * What the violation is about, so that one loss seen twice counts once: the refresh token for
   * `double-refresh`, else the session id (none for a violation of the whole run).
   */
  readonly subject?: string;
}

const ALLOWED: Readonly<Record<OperationKind, readonly number[]>> = {
  login: [200, 503],
  refresh: [200, 401, 503],
  me: [200, 401, 503],
  list: [200, 401, 503],
  logout: [200, 401, 503],
  replay: [401, 503],
  probe: [401, 503],
  'committed-check': [200, 401],
};

/** After a fault heals, the service must be back within this long (and stay up). */
export const RECOVERY_BOUND_MS = 5000;

/**
 * The invariants of issue 12, checked over the history of one scenario:
 * the server never exits; every request is answered within the store deadline
 * plus one second; no 5xx but 503, and a 503 carries exactly the fixed body; no
 * unexpected status (a login may also be refused 429 `login_busy`); a refresh token refreshes at most once; no 200 on a guarded
 * request sent after its session's revocation was acknowledged; a session the
 * client holds with every write acknowledged never dies unasked (no rotation ran
 * twice, no acknowledged write was lost); every issued token belongs to a session
 * the store has; the service is back within 5 s of the heal and stays up.
 */
export function checkHistory(input: CheckInput): Violation[] {
  const violations: Violation[] = [];
  const report = (rule: string, entry: HistoryEntry | null, detail: string) => {
    const subject = (rule === 'double-refresh' ? entry?.presented : entry?.sid) ?? undefined;
    violations.push({ rule, detail: entry === null ? detail : `${describe(entry)}: ${detail}`, ...(subject === undefined ? {} : { subject }) });
  };
  if (input.serverExit !== null) report('server-exited', null, `the server process ended: ${JSON.stringify(input.serverExit)}`);

  const revokedAt = new Map<string, number>();
  const refreshWins = new Map<string, number>();
  for (const entry of input.entries) {
    if (entry.sid === null) continue;
    const acknowledged =
      (entry.kind === 'logout' && entry.status === 200) || (entry.kind === 'replay' && entry.status === 401 && entry.code === 'token_reuse_detected');
    if (acknowledged) revokedAt.set(entry.sid, Math.min(entry.end, revokedAt.get(entry.sid) ?? Number.POSITIVE_INFINITY));
  }

  const settledAt =
    input.healedAt === null
      ? Number.NEGATIVE_INFINITY
      : Math.min(input.healedAt + RECOVERY_BOUND_MS, input.healedAt + (input.recoveryMs ?? RECOVERY_BOUND_MS) + 1000);
  for (const entry of input.entries) {
    const { status } = entry;
    if (status === 'timeout' || status === 'error') {
      report('no-answer', entry, entry.body);
      continue;
    }
    if (entry.end - entry.start > input.deadlineMs + 1000) {
      report('slow-answer', entry, `answered after ${entry.end - entry.start} ms (bound ${input.deadlineMs + 1000} ms)`);
    }
    if (status >= 500 && status !== 503) report('server-error', entry, entry.body);
    else if (!ALLOWED[entry.kind].includes(status) && !isHasherBusy(entry)) report('unexpected-status', entry, entry.body);
    if (status === 503 && !isUnavailableBody(entry.body)) report('503-body', entry, entry.body);
    if (status === 503 && entry.start >= settledAt) report('outage-after-heal', entry, 'still 503 after the service had recovered');
    if (entry.presented !== null && status === 200) {
      const wins = (refreshWins.get(entry.presented) ?? 0) + 1;
      refreshWins.set(entry.presented, wins);
      if (wins > 1) report('double-refresh', entry, `this refresh token refreshed ${wins} times`);
    }
    const guarded = entry.kind === 'me' || entry.kind === 'list' || entry.kind === 'probe' || entry.kind === 'committed-check';
    const revoked = entry.sid === null ? undefined : revokedAt.get(entry.sid);
    if (guarded && status === 200 && revoked !== undefined && entry.start > revoked) {
      report('revoked-but-served', entry, `200 for a session whose revocation was acknowledged ${entry.start - revoked} ms earlier`);
    }
    if (entry.expectLive && status === 401) report('live-session-lost', entry, `${entry.code}: the session died though every write was acknowledged`);
    if (entry.kind === 'committed-check' && status === 401 && entry.code !== 'session_expired') {
      report('uncommitted-token', entry, `${entry.code}: a token was issued for a session the store does not have`);
    }
  }
  if (input.healedAt !== null && (input.recoveryMs === null || input.recoveryMs > RECOVERY_BOUND_MS)) {
    report('not-recovered', null, `no full login and guarded read within ${RECOVERY_BOUND_MS} ms of the heal (${input.recoveryMs} ms)`);
  }
  return violations;
}

/**
 * A login refused at once because the password hasher's line is full (429 `login_busy`): the
 * overload answer of issue 21, expected while a fault holds logins' store calls and the line backs up.
 */
function isHasherBusy(entry: HistoryEntry): boolean {
  return entry.kind === 'login' && entry.status === 429 && entry.code === 'login_busy';
}

function isUnavailableBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return Object.keys(parsed).length === 2 && parsed.error_code === UNAVAILABLE_BODY.error_code && parsed.message === UNAVAILABLE_BODY.message;
  } catch {
    return false;
  }
}

function describe(entry: HistoryEntry): string {
  return `#${entry.seq} client ${entry.client} ${entry.kind} -> ${entry.status}${entry.code === null ? '' : ` ${entry.code}`}`;
}
