import type { CounterState } from './provider-sql.js';

/** A counter row as a raw query or the model returns it (BIGINT as bigint, counts as number or bigint). */
export function counterState(row: { count: unknown; reset_at?: unknown; resetAt?: unknown } | undefined): CounterState {
  if (row === undefined) throw new Error('counter upsert left no row');
  return { count: Number(row.count), resetAtMs: Number(row.reset_at ?? row.resetAt) };
}
