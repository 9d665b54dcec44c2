/** The ordering key of an active session, for the login cap. */
export interface ActiveKey {
  readonly id: string;
  readonly createdAt: number | string | bigint;
}

/**
 * Ids to revoke so that, with the newcomer, at most `cap` stay active: oldest first (smallest
 * `createdAt`), ties by id in code-unit order, the newcomer included (a login that arrives
 * out of order, older than `cap` active sessions, is itself stored revoked).
 */
export function oldestBeyondCap(active: readonly ActiveKey[], newcomer: ActiveKey, cap: number): string[] {
  const all = [...active, newcomer].map((key) => ({ id: key.id, at: Number(key.createdAt) }));
  const excess = all.length - Math.max(cap, 0);
  if (excess <= 0) return [];
  all.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, excess).map((key) => key.id);
}
