import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE, renderLayersDiagram, withDiagram } from '../scripts/layers-diagram.js';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const { CORE_LAYERS } = createRequire(import.meta.url)('../layers.cjs') as { CORE_LAYERS: readonly { folders: readonly string[] }[] };

describe('docs/ARCHITECTURE.md', () => {
  it('draws the layers the layer check enforces (pnpm --filter @sessauth/core docs:layers redraws it)', () => {
    const doc = readFileSync(ARCHITECTURE, 'utf8');
    expect(withDiagram(doc, renderLayersDiagram())).toBe(doc);
  });

  it('places every folder of the core in exactly one layer', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    const placed = CORE_LAYERS.flatMap((layer) => layer.folders);
    expect([...placed].sort()).toEqual([...folders].sort());
    expect(new Set(placed).size).toBe(placed.length);
  });
});
