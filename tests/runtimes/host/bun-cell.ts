import { MemorySessionStore } from '@sessauth/core';
import type { CellStores } from './remote-engine.js';

/** The cell's store on Bun: memory, or (next) Redis and bun:sqlite. */
export async function openBunCell(kind: string, _prefix: string): Promise<CellStores> {
  if (kind === 'memory') return { store: new MemorySessionStore() };
  throw new Error(`no ${kind} store on Bun`);
}
