import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where every example serves the browser client; the demo page imports it from here. */
export const CLIENT_ASSET_PATH = '/sessauth-client.js';

export interface AssetResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * `GET /sessauth-client.js`: the built ESM of `@sessauth/client` (its
 * `dist/index.js`), so the demo page needs no build step of its own. Read on each
 * request, so a rebuilt client is served without a restart. `pnpm example` builds
 * it when missing; without it, a 503 says how.
 */
export function clientAssetResponse(): AssetResponse {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('@sessauth/client/package.json')), 'dist', 'index.js');
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return {
      status: 503,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
      body: 'The browser client is not built: run `pnpm --filter @sessauth/client build` (pnpm example does it for you).\n',
    };
  }
  return {
    status: 200,
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
    // The source map is not served: drop the comment pointing at it.
    body: source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'),
  };
}
