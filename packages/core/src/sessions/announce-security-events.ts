import type { SecurityEventFacts } from '../ssf/caep-events.js';
import type { SessionServices } from './session-services.js';

/**
 * Runs `change` (a revocation, a password change) with its Shared Signals events in the
 * outbox around it, when the transmitter is on: the SETs are held before the change (a
 * store fault there fails the request closed, with nothing changed), released when
 * `happened(result)` says the change was made, dropped when it was not. A failure between the
 * two (the change threw, the process died, the release failed) leaves the rows held; the
 * dispatcher recovers them after the claim lease and checks whether the change was made.
 */
export async function withSecurityEvents<U, T>(
  services: SessionServices<U>,
  facts: () => readonly SecurityEventFacts[] | Promise<readonly SecurityEventFacts[]>,
  change: () => Promise<T>,
  happened: (result: T) => boolean,
  { dropWhenChangeThrows = false }: { readonly dropWhenChangeThrows?: boolean } = {},
): Promise<T> {
  const writer = services.securityEvents;
  if (writer === null) return change();
  const batch = await writer.hold(await facts());
  let result: T;
  try {
    result = await change();
  } catch (error) {
    // A change the recovery cannot check afterwards (the host's password write) is taken as
    // not made when it throws; a revocation is left held, for the recovery's check.
    if (dropWhenChangeThrows) await writer.release(batch, false).catch(() => undefined);
    throw error;
  }
  try {
    await writer.release(batch, happened(result));
  } catch (error) {
    services.logger.warn('ssf_release_failed', { error: error instanceof Error ? error.name : 'Error' });
  }
  return result;
}

/**
 * Events of a change the store already made in its own atomic step (a refresh swap that
 * detected reuse or an idle session): written right after it. Never throws: the request's
 * answer does not depend on it; a fault is logged (see docs/shared-signals.md, the window).
 */
export async function recordSecurityEvents<U>(services: SessionServices<U>, facts: readonly SecurityEventFacts[]): Promise<void> {
  const writer = services.securityEvents;
  if (writer === null) return;
  try {
    await writer.record(facts);
  } catch (error) {
    services.logger.error('ssf_event_not_recorded', { error: error instanceof Error ? error.name : 'Error' });
  }
}
