import type { RotateOutcome, RotateRefreshInput, SessionRecord } from '@sessauth/core/store';
import type { RotateValues } from './conditions.js';
import type { SessionRow } from './session-row.js';
import { isActiveModelRow } from '@sessauth/core/store';

/** The record after a swap, `null` when it swapped but the row is gone already, or 'no_swap'. */
export type SwapResult = SessionRecord | null | 'no_swap';

export function rotateValues(input: RotateRefreshInput): RotateValues {
  return {
    id: input.sessionId,
    userId: input.userId,
    presentedJti: input.presentedJti,
    nextJti: input.nextJti,
    stamp: input.securityStamp,
    now: input.now.getTime(),
    idleCutoff: input.idleCutoff?.getTime() ?? -1,
  };
}

export function swapOutcome(swapped: SessionRecord | null): RotateOutcome {
  return swapped === null ? { status: 'expired' } : { status: 'consumed', session: swapped };
}

/** missing, wrong_user or expired (none of them ever changes back); null for an active session of this user. */
export function finalOutcome(row: SessionRow | undefined, values: RotateValues): RotateOutcome | null {
  if (row === undefined) return { status: 'missing' };
  if (row.userId !== values.userId) return { status: 'wrong_user' };
  if (!isActiveModelRow(row, values.now)) return { status: 'expired' };
  return null;
}

/**
 * What the locked re-check of an active session of this user decides: revoke it (idle, then a
 * stale stamp, then a stale jti, in the order of the port's contract) or swap under the lock.
 */
export function lockedDecision(row: SessionRow, values: RotateValues): 'idle' | 'security_changed' | 'reused' | 'swap' {
  if (Number(row.lastActivityAt) <= values.idleCutoff) return 'idle';
  if (row.securityStamp !== values.stamp) return 'security_changed';
  if (row.refreshJti !== values.presentedJti) return 'reused';
  return 'swap';
}

/**
 * A swap without RETURNING (MySQL) re-reads the row and lays the swapped fields over it,
 * so a change made after the swap cannot show through.
 */
export function afterSwap(row: SessionRecord, values: RotateValues): SessionRecord {
  return { ...row, refreshJti: values.nextJti, securityStamp: values.stamp, lastActivityAt: new Date(values.now), expiredAt: null };
}
