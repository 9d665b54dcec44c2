import type { Violation } from '../checker.js';
import type { HistoryEntry } from '../history.js';

/** What a failover lost, in the words of issue 26 (each counted once per session or token). */
export interface LossCounts {
  /** Sessions whose acknowledged revocation was later not honoured (a guarded 200 after it). */
  readonly revocationsLost: number;
  /** Refresh tokens that refreshed twice: an acknowledged rotation undone, its old token working again. */
  readonly rotationsUndone: number;
  /** Sessions acknowledged (every write answered) that later died unasked or were missing from the store. */
  readonly sessionsLost: number;
  /** Answers past the store's deadline plus one second, or none at all. */
  readonly lateAnswers: number;
}

const RULES: Readonly<Record<keyof LossCounts, readonly string[]>> = {
  revocationsLost: ['revoked-but-served'],
  rotationsUndone: ['double-refresh'],
  sessionsLost: ['live-session-lost', 'uncommitted-token'],
  lateAnswers: ['slow-answer', 'no-answer'],
};

export const NO_LOSS: LossCounts = { revocationsLost: 0, rotationsUndone: 0, sessionsLost: 0, lateAnswers: 0 };

/**
 * Counts the checker's violations as losses (distinct sessions or tokens; answers one by one) and
 * returns the rest (availability: 503 after recovery, no recovery, a wrong body...). A replayed token
 * answered 200 is both `double-refresh` and `unexpected-status`: counted once, as an undone rotation.
 */
export function countLosses(violations: readonly Violation[]): { losses: LossCounts; others: Violation[] } {
  const counted = new Set(Object.values(RULES).flat());
  const losses = { ...NO_LOSS };
  for (const [kind, rules] of Object.entries(RULES) as Array<[keyof LossCounts, readonly string[]]>) {
    const matching = violations.filter((v) => rules.includes(v.rule) || (kind === 'revocationsLost' && isServedProbe(v)));
    const perAnswer = kind === 'lateAnswers';
    losses[kind] = perAnswer ? matching.length : new Set(matching.map((v) => v.subject ?? v.detail)).size;
  }
  const others = violations.filter(
    (v) => !counted.has(v.rule) && !(v.rule === 'unexpected-status' && / replay -> 200\b/.test(v.detail)) && !isServedProbe(v),
  );
  return { losses, others };
}

export function addLosses(a: LossCounts, b: LossCounts): LossCounts {
  return {
    revocationsLost: a.revocationsLost + b.revocationsLost,
    rotationsUndone: a.rotationsUndone + b.rotationsUndone,
    sessionsLost: a.sessionsLost + b.sessionsLost,
    lateAnswers: a.lateAnswers + b.lateAnswers,
  };
}

export function totalLost(losses: LossCounts): number {
  return losses.revocationsLost + losses.rotationsUndone + losses.sessionsLost + losses.lateAnswers;
}

/** The p-th percentile (nearest rank) of the refresh answers that succeeded, in ms; null without any. */
export function refreshLatency(entries: readonly HistoryEntry[], percentile: number): number | null {
  const durations = entries
    .filter((entry) => entry.kind === 'refresh' && entry.status === 200)
    .map((entry) => entry.end - entry.start)
    .sort((a, b) => a - b);
  if (durations.length === 0) return null;
  return durations[Math.min(durations.length - 1, Math.ceil((percentile / 100) * durations.length) - 1)] ?? null;
}

/**
 * Violations of availability only: 503s after the service had recovered, or no recovery within the
 * checker's bound. On a loaded machine a replica's acknowledgement can come late (the durable store
 * then answers 503) and the sentinels can fail a slow primary over once more: recorded, not a loss.
 */
export const AVAILABILITY_RULES: readonly string[] = ['outage-after-heal', 'not-recovered'];

/**
 * An availability finding: a rule above, or a committed check (a read after the load) answered 503: the
 * store could not be asked then, so that session is unverified, not lost (counted apart in the table).
 */
export function isAvailability(violation: Violation): boolean {
  return AVAILABILITY_RULES.includes(violation.rule) || isUnansweredCheck(violation);
}

export function isUnansweredCheck(violation: Violation): boolean {
  return violation.rule === 'unexpected-status' && / committed-check -> 503\b/.test(violation.detail);
}

/**
 * A probe answered 200: the client probes its session right after an acknowledged logout or reuse
 * revocation, so a 200 is that revocation lost (counted there, once per session, whether or not the
 * checker also reported it as `revoked-but-served`), not a contract break.
 */
function isServedProbe(violation: Violation): boolean {
  return violation.rule === 'unexpected-status' && / probe -> 200\b/.test(violation.detail);
}

/** Counts of violations by rule, as `rule:count` words. */
export function rulesOf(violations: readonly Violation[]): string {
  const counts = new Map<string, number>();
  for (const v of violations) {
    const rule = isUnansweredCheck(v) ? 'committed-check-503' : v.rule;
    counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  return [...counts].map(([rule, count]) => `${rule}:${count}`).join(' ') || 'none';
}
