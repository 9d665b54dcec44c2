import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../src');
const IMPORT = /(?:import|export)\s[^'"]*?from\s+'([^']+)'/g;

/** Every module reachable from `entry` through static imports (relative ones followed). */
function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, target] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (target!.startsWith('.')) visit(join(dirname(file), target!.replace(/\.js$/, '.ts')));
      else packages.add(target!);
    }
  };
  visit(join(SRC, entry));
  return { files, packages };
}

describe('entry points', () => {
  it('keeps the mmdb reader and the file system out of the main entry', () => {
    const { files, packages } = reachable('index.ts');
    expect([...files].map((f) => relative(SRC, f)).filter((f) => f.includes('mmdb'))).toEqual([]);
    expect([...packages].sort()).toEqual(['ipaddr.js', 'jose', 'ua-parser-js']);
  });

  it('keeps the WASM hasher free of node: modules and native code', () => {
    expect([...reachable('password/argon2-wasm.ts').packages].sort()).toEqual(['argon2-wasm-edge']);
  });

  it('puts the reader on the mmdb entry', () => {
    expect([...reachable('geo/mmdb/mmdb-provider.ts').packages].sort()).toEqual(['mmdb-lib', 'node:fs/promises']);
  });
});
