import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLIC_PACKAGES, WORKSPACE_ROOT } from '../src/pack-workspace.js';

interface Manifest {
  readonly bin?: Record<string, string>;
  readonly files?: readonly string[];
}

const withBins = PUBLIC_PACKAGES.flatMap((name) => {
  const manifest = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'packages', name, 'package.json'), 'utf8')) as Manifest;
  return Object.entries(manifest.bin ?? {}).map(([command, target]) => ({ name, command, target, files: manifest.files ?? [] }));
});

// pnpm links every workspace bin at install time, before anything is built: a bin that
// points into dist/ prints "WARN Failed to create bin" once per dependent on a fresh clone.
describe('bin targets exist on a fresh clone', () => {
  it('the kysely and redis CLIs are among them', () => {
    expect(withBins.map((bin) => bin.command)).toEqual(expect.arrayContaining(['sessauth-kysely', 'sessauth-redis']));
  });

  it.each(withBins)('$command: $target is a committed file, outside dist, and published', ({ name, target, files }) => {
    const path = join('packages', name, target);
    expect(target.startsWith('./dist/') || target.startsWith('dist/')).toBe(false);
    expect(() => execFileSync('git', ['ls-files', '--error-unmatch', path], { cwd: WORKSPACE_ROOT, stdio: 'pipe' })).not.toThrow();
    expect(files).toContain(target.replace(/^\.\//, '').split('/')[0]);
  });
});
