/**
 * Comparison whose time does not depend on where two strings differ. Callers pass
 * values of a fixed length (CSRF secrets, stamp digests), so an early return on a
 * length mismatch reveals nothing they do not already know.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
