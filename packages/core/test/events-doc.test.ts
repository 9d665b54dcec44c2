import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const TYPES = readFileSync(new URL('../src/events/session-events.ts', import.meta.url), 'utf8');
const DOC = readFileSync(new URL('../../../docs/events.md', import.meta.url), 'utf8');

/** The top-level `readonly` fields of each exported interface of the types file, by interface name. */
function interfaceFields(source: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const match of source.matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)) {
    const names = [...match[2]!.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((field) => field[1]!);
    fields.set(match[1]!, names);
  }
  return fields;
}

/** event name -> payload interface, from `SessauthEventMap`. */
function eventMap(fields: Map<string, string[]>): Map<string, string> {
  const body = /^export interface SessauthEventMap \{\n([\s\S]*?)^\}/m.exec(TYPES)![1]!;
  const map = new Map([...body.matchAll(/^ {2}(\w+): (\w+);/gm)].map((entry) => [entry[1]!, entry[2]!] as const));
  for (const payload of map.values()) expect(fields.has(payload), payload).toBe(true);
  return map;
}

/** The doc's sections: `## \`name\`` -> the fields of its first table (first column, in backticks). */
function documented(): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  for (const section of DOC.split(/^## /m).slice(1)) {
    const name = /^`(\w+)`/.exec(section)?.[1];
    if (name === undefined) continue;
    const table = section.split('\n\n').find((block) => block.startsWith('| field |')) ?? '';
    sections.set(
      name,
      [...table.matchAll(/^\| `(\w+)` \|/gm)].map((row) => row[1]!),
    );
  }
  return sections;
}

describe('docs/events.md', () => {
  const fields = interfaceFields(TYPES);
  const events = eventMap(fields);
  const doc = documented();

  it('has one section per event of SessauthEventMap, and no other', () => {
    expect([...doc.keys()].sort()).toEqual([...events.keys()].sort());
    expect(events.size).toBeGreaterThanOrEqual(5);
  });

  it.each([...events])('`%s` lists every field of %s, in order, and nothing else', (event, payload) => {
    expect(doc.get(event)).toEqual(fields.get(payload));
  });

  it('lists every revoke reason', () => {
    const reasons = [.../export type RevokeReason = ([^;]+);/.exec(TYPES)![1]!.matchAll(/'(\w+)'/g)].map((reason) => reason[1]!);
    const table = DOC.split('\n\n').find((block) => block.startsWith('| reason |'))!;
    expect([...table.matchAll(/^\| `(\w+)` \|/gm)].map((row) => row[1]!).sort()).toEqual(reasons.sort());
  });

  it('is linked from docs/README.md', () => {
    expect(readFileSync(new URL('../../../docs/README.md', import.meta.url), 'utf8')).toContain('](events.md)');
  });
});
