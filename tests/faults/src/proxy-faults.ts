import type { FaultMode, FaultProxy } from '@sessauth/conformance/faults';
import { sleep } from './load.js';
import type { Fault } from './scenario.js';
import { BLACKHOLE_MS, HOLD_MS } from './timing.js';

/** Texts on the wire that mark a step of the store's work, per engine (as the driver sends them). */
export interface WireMarkers {
  /** The first statement of every transaction (login, and refresh classification). */
  readonly transaction: string;
  /** The login's per-user lock, which starts the cap step. */
  readonly capStep: string;
  /** A transaction's commit. */
  readonly commit: string;
}

const pass: FaultMode = { kind: 'pass' };

/** A fault that puts the proxy in `mode`, holds, and passes again. */
export function proxyMode(proxy: FaultProxy, name: string, mode: FaultMode, holdMs = HOLD_MS): Fault {
  return {
    name,
    holdMs,
    inject: () => proxy.setMode(mode),
    heal: () => proxy.setMode(pass),
  };
}

/**
 * The network faults every proxied store goes through (issue 12, item 2). With
 * `markers`, resets land inside the store's transactions (SQL); without, a Redis
 * script's reply is lost instead (a script is atomic: nothing happens inside it).
 */
export function networkFaults(proxy: FaultProxy, markers: WireMarkers | { readonly script: string }): Fault[] {
  const placed =
    'script' in markers
      ? [
          proxyMode(proxy, 'script acknowledgement lost (the script runs, its reply is cut)', {
            kind: 'cut',
            direction: 'downstream',
            afterBytes: 0,
            after: markers.script,
          }),
        ]
      : transactionFaults(proxy, markers);
  return [
    {
      name: 'connection reset mid-query (every open connection, five times)',
      holdMs: 0,
      async inject() {
        for (let i = 0; i < 5; i += 1) {
          proxy.resetAll();
          await sleep(HOLD_MS / 5);
        }
      },
      heal: async () => undefined,
    },
    ...placed,
    proxyMode(proxy, 'reply lost after every statement (cut after the query is sent)', {
      kind: 'cut',
      direction: 'downstream',
      afterBytes: 0,
    }),
    {
      name: 'server down: open connections reset, new ones refused',
      holdMs: HOLD_MS,
      async inject() {
        await proxy.setMode({ kind: 'refuse' });
        proxy.resetAll();
      },
      heal: () => proxy.setMode(pass),
    },
    proxyMode(proxy, `blackhole (partition) for ${BLACKHOLE_MS / 1000} s, then heal`, { kind: 'blackhole' }, BLACKHOLE_MS),
    proxyMode(proxy, '500 ms latency on every reply', { kind: 'latency', ms: 500, direction: 'downstream' }),
  ];
}

function transactionFaults(proxy: FaultProxy, markers: WireMarkers): Fault[] {
  return [
    proxyMode(proxy, 'reset inside every transaction (login, refresh classification)', {
      kind: 'cut',
      direction: 'upstream',
      afterBytes: 0,
      after: markers.transaction,
    }),
    proxyMode(proxy, "reset inside the login's cap step", { kind: 'cut', direction: 'upstream', afterBytes: 0, after: markers.capStep }),
    proxyMode(proxy, 'commit acknowledgement lost (COMMIT reaches the server, its reply does not)', {
      kind: 'cut',
      direction: 'downstream',
      afterBytes: 0,
      after: markers.commit,
    }),
  ];
}
