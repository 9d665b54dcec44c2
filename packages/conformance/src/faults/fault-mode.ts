/** `upstream` is client to server (queries), `downstream` server to client (replies). */
export type FaultDirection = 'upstream' | 'downstream';

/**
 * What the proxy does to traffic, switchable at run time (`FaultProxy.setMode`).
 * Every mode applies to the connections already open and to new ones.
 */
export type FaultMode =
  /** Forward everything as it comes. */
  | { readonly kind: 'pass' }
  /** Stop listening: new connections get ECONNREFUSED; open ones keep passing. */
  | { readonly kind: 'refuse' }
  /**
   * A network partition: keep every socket open and forward nothing, in either
   * direction; new connections are accepted and stay silent. Like TCP across a
   * partition, nothing is lost: what was sent is delivered in order after the heal,
   * and a side that closed meanwhile is seen closed only then.
   */
  | { readonly kind: 'blackhole' }
  /** Delay every chunk by `ms`, in one direction or both (order is kept). */
  | { readonly kind: 'latency'; readonly ms: number; readonly direction?: FaultDirection | 'both' }
  /**
   * Forward `afterBytes` more bytes in `direction` on each connection, then reset
   * it (both sides). With `after`, a connection is armed only once an upstream
   * chunk containing that text has been forwarded: `{ direction: 'downstream',
   * afterBytes: 0, after: 'commit' }` lets a COMMIT reach the server and loses its
   * reply (the "commit acknowledgement lost" case). Bytes are counted from the
   * moment the mode is set.
   */
  | { readonly kind: 'cut'; readonly direction: FaultDirection; readonly afterBytes: number; readonly after?: string };

/** Throws a TypeError for a mode that cannot be applied (bad numbers, unknown kind). */
export function validateFaultMode(mode: FaultMode): FaultMode {
  switch (mode.kind) {
    case 'pass':
    case 'refuse':
    case 'blackhole':
      return mode;
    case 'latency':
      if (!Number.isFinite(mode.ms) || mode.ms < 0) throw new TypeError('fault proxy: latency ms must be a number >= 0');
      if (mode.direction !== undefined && !['upstream', 'downstream', 'both'].includes(mode.direction)) {
        throw new TypeError('fault proxy: latency direction must be upstream, downstream or both');
      }
      return mode;
    case 'cut':
      if (!Number.isSafeInteger(mode.afterBytes) || mode.afterBytes < 0) {
        throw new TypeError('fault proxy: cut afterBytes must be an integer >= 0');
      }
      if (mode.direction !== 'upstream' && mode.direction !== 'downstream') {
        throw new TypeError('fault proxy: cut direction must be upstream or downstream');
      }
      if (mode.after !== undefined && mode.after.length === 0) throw new TypeError('fault proxy: cut after must not be empty');
      return mode;
    default:
      throw new TypeError(`fault proxy: unknown mode ${JSON.stringify((mode as { kind: unknown }).kind)}`);
  }
}

/** The delay a latency mode adds to a chunk travelling in `direction`. */
export function delayOf(mode: FaultMode, direction: FaultDirection): number {
  if (mode.kind !== 'latency') return 0;
  const applies = mode.direction === undefined || mode.direction === 'both' || mode.direction === direction;
  return applies ? mode.ms : 0;
}
