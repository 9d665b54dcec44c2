// The picture of the core's layers in docs/ARCHITECTURE.md, drawn from packages/core/layers.cjs,
// the list the layer check (.dependency-cruiser.cjs) enforces. `pnpm --filter @sessauth/core
// docs:layers` writes it; test/architecture-doc.test.ts fails while the picture and the rule differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface Layer {
  readonly band: string;
  readonly folders: readonly string[];
  readonly role: string;
}

const { CORE_LAYERS } = createRequire(import.meta.url)('../layers.cjs') as { CORE_LAYERS: readonly Layer[] };

export const ARCHITECTURE = fileURLToPath(new URL('../../../docs/ARCHITECTURE.md', import.meta.url));
export const START = '<!-- layers:start (drawn from packages/core/layers.cjs) -->';
export const END = '<!-- layers:end -->';

/** A Mermaid flowchart (GitHub renders it): one box per band, top first, each importing only the bands below. */
export function renderLayersDiagram(): string {
  const lines = ['```mermaid', 'flowchart TB'];
  CORE_LAYERS.forEach((layer, index) => {
    lines.push(`  L${index}["<b>${layer.band}</b><br/>${layer.folders.map((folder) => `${folder}/`).join(' ')}<br/><i>${layer.role}</i>"]`);
  });
  for (let index = 0; index + 1 < CORE_LAYERS.length; index += 1) lines.push(`  L${index} --> L${index + 1}`);
  lines.push('```');
  return lines.join('\n');
}

export function withDiagram(doc: string, diagram: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start) throw new Error(`docs/ARCHITECTURE.md has no ${START} ... ${END} block`);
  return `${doc.slice(0, start + START.length)}\n${diagram}\n${doc.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ARCHITECTURE, withDiagram(readFileSync(ARCHITECTURE, 'utf8'), renderLayersDiagram()));
  console.log('docs/ARCHITECTURE.md: layers diagram written');
}
