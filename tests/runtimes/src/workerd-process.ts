import { freePort } from '@sessauth/test-support';
import { Miniflare } from 'miniflare';
import { BUNDLE_DIR } from './bundle.js';
import type { RuntimeProcess } from './remote-cell.js';

// Direct sockets besides Miniflare's own (slot 0): a test runs at most three apps at once.
const DIRECT_SLOTS = 4;

/**
 * workerd (through Miniflare) on the bundled worker: Miniflare's own socket (its entry worker
 * sets CF-Connecting-IP, as Cloudflare's edge does) and one direct socket per slot entrypoint. No `nodejs_compat`:
 * the core must run on the plain Workers runtime.
 */
export async function startWorkerd(entry: string, store: string): Promise<RuntimeProcess> {
  const ports: number[] = [];
  for (let slot = 0; slot < DIRECT_SLOTS; slot++) ports.push(await freePort());
  const mf = new Miniflare({
    modules: true,
    scriptPath: entry,
    modulesRoot: BUNDLE_DIR,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2025-09-01',
    host: '127.0.0.1',
    port: 0,
    bindings: { SLOT_PORTS: JSON.stringify(ports), SESSAUTH_CELL_STORE: store },
    durableObjects: { RATE_LIMITS: 'RateLimitCounter' },
    unsafeDirectSockets: ports.map((port, index) => ({ host: '127.0.0.1', port, entrypoint: `slot${index + 1}` })),
  });
  const url = await mf.ready;
  return { controlUrl: new URL('/__control', url).href, close: () => mf.dispose() };
}
