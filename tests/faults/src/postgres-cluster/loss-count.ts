import type { Violation } from '../checker.js';
import type { HistoryEntry } from '../history.js';

/** What a failover lost, counted from one history (the checker's rules, counted per session or token). */
export interface LossCount {
  /** Sessions served (a guarded 200) after their revocation was acknowledged. */
  readonly revocationsLost: number;
  /** Refresh tokens that refreshed twice: an acknowledged rotation undone, its old token working again. */
  readonly rotationsUndone: number;
  /**
   * Sessions acknowledged and later missing or dead though the client did nothing to
   * end them: a lost login (`session_not_found`), or a lost rotation that made the
   * client's next refresh look like a replay (`token_reuse_detected`).
   */
  readonly sessionsLost: number;
  /** Answers later than the store's deadline plus one second (measured, see MEASURED_RULES). */
  readonly pastDeadline: number;
}

/** The checker's rules that count a lost write (above). */
const LOSS_RULES = new Set(['revoked-but-served', 'double-refresh', 'live-session-lost', 'uncommitted-token']);
/**
 * The checker's time bounds, measured and reported here rather than judged: after a
 * synchronous failover every client signs in again at once, and on a loaded 2-core
 * machine the burst of argon2 hashes alone can take an answer past the deadline plus
 * one second (by up to 0.6 s in the soak), which says nothing about the store.
 * A 503 after the service is back is judged from the measured recovery instead
 * (`FailoverRoundReport.outageAfterRecovery`), not from a fixed 5 s after the heal.
 */
const MEASURED_RULES = new Set(['slow-answer', 'not-recovered', 'outage-after-heal']);

/**
 * The violations judged in every cell: a 500, a wrong 503 body, no answer, an
 * unexpected status, a server exit (not the losses, not the time bounds).
 */
export function judgedViolations(violations: readonly Violation[]): Violation[] {
  return violations.filter(
    (violation) =>
      !LOSS_RULES.has(violation.rule) &&
      !MEASURED_RULES.has(violation.rule) &&
      // A replayed refresh token answered 200 is the double refresh counted above.
      !(violation.rule === 'unexpected-status' && / replay -> 200\b/.test(violation.detail)),
  );
}

/** The same definitions as `checkHistory`, counted once per session (or per refresh token). */
export function countLosses(entries: readonly HistoryEntry[], deadlineMs: number): LossCount {
  const revokedAt = new Map<string, number>();
  for (const entry of entries) {
    if (entry.sid === null) continue;
    const acknowledged =
      (entry.kind === 'logout' && entry.status === 200) || (entry.kind === 'replay' && entry.status === 401 && entry.code === 'token_reuse_detected');
    if (acknowledged) revokedAt.set(entry.sid, Math.min(entry.end, revokedAt.get(entry.sid) ?? Number.POSITIVE_INFINITY));
  }
  const served = new Set<string>();
  const wins = new Map<string, number>();
  const lost = new Set<string>();
  let pastDeadline = 0;
  for (const entry of entries) {
    if (typeof entry.status === 'number' && entry.end - entry.start > deadlineMs + 1000) pastDeadline += 1;
    const guarded = entry.kind === 'me' || entry.kind === 'list' || entry.kind === 'probe' || entry.kind === 'committed-check';
    const revoked = entry.sid === null ? undefined : revokedAt.get(entry.sid);
    if (guarded && entry.status === 200 && revoked !== undefined && entry.start > revoked && entry.sid !== null) served.add(entry.sid);
    if (entry.presented !== null && entry.status === 200) wins.set(entry.presented, (wins.get(entry.presented) ?? 0) + 1);
    const diedUnasked = entry.expectLive && entry.status === 401;
    const missing = entry.kind === 'committed-check' && entry.status === 401 && entry.code !== 'session_expired';
    if ((diedUnasked || missing) && entry.sid !== null) lost.add(entry.sid);
  }
  return {
    revocationsLost: served.size,
    rotationsUndone: [...wins.values()].filter((count) => count > 1).length,
    sessionsLost: lost.size,
    pastDeadline,
  };
}

export function addLosses(a: LossCount, b: LossCount): LossCount {
  return {
    revocationsLost: a.revocationsLost + b.revocationsLost,
    rotationsUndone: a.rotationsUndone + b.rotationsUndone,
    sessionsLost: a.sessionsLost + b.sessionsLost,
    pastDeadline: a.pastDeadline + b.pastDeadline,
  };
}

export const NO_LOSS: LossCount = { revocationsLost: 0, rotationsUndone: 0, sessionsLost: 0, pastDeadline: 0 };

/** The acknowledged writes lost (the time bound left out). */
export function writesLost(losses: LossCount): Pick<LossCount, 'revocationsLost' | 'rotationsUndone' | 'sessionsLost'> {
  return { revocationsLost: losses.revocationsLost, rotationsUndone: losses.rotationsUndone, sessionsLost: losses.sessionsLost };
}

/** The value below which `fraction` of the sorted samples fall (nearest rank). */
export function percentile(samples: readonly number[], fraction: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? null;
}
