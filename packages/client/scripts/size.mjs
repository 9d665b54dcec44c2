// Prints the client's shipped size: the minified ESM build, gzipped (level 9).
// Run after `pnpm build`: `pnpm --filter @sessauth/client size`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const file = new URL('../dist/sessauth-client.min.js', import.meta.url);
const minified = readFileSync(file);
const gzipped = gzipSync(minified, { level: 9 });
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`@sessauth/client: ${kb(minified.length)} minified, ${kb(gzipped.length)} minified + gzipped (${gzipped.length} bytes)`);
