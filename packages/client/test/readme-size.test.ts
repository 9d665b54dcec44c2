import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Options } from 'tsup';
import { afterAll, describe, expect, it } from 'vitest';
import configs from '../tsup.config.js';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The minified build exactly as `pnpm build` makes it (the second tsup config), into a temporary folder. */
async function minifiedSize(outDir: string): Promise<{ minified: number; gzipped: number }> {
  const minifiedConfig = (configs as Options[]).find((config) => config.minify === true);
  if (minifiedConfig === undefined) throw new Error('tsup.config.ts has no minified build');
  await build({ ...minifiedConfig, entry: { 'sessauth-client.min': join(PACKAGE, 'src/index.ts') }, outDir, silent: true, config: false });
  const bytes = readFileSync(join(outDir, 'sessauth-client.min.js'));
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
}

describe('the size a user reads is the size the build ships', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sessauth-client-size-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('the client README and the root README state the measured minified and gzipped sizes', async () => {
    const { minified, gzipped } = await minifiedSize(outDir);
    const clientReadme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    const rootReadme = readFileSync(join(PACKAGE, '../../README.md'), 'utf8');
    // Update both READMEs with `pnpm --filter @sessauth/client size` after a build when this fails.
    expect(clientReadme).toContain(`**${kib(gzipped)} minified + gzipped** (${kib(minified)} minified`);
    expect(rootReadme).toContain(`(${kib(gzipped)} minified + gzipped, no dependencies)`);
  });
});
