import { MemorySessionStore } from '@sessauth/core';
import { describe, expect, it } from 'vitest';
import { ADAPTER_TEST_IDS, describeAdapterConformance } from '@sessauth/conformance';
import { mountPlainNode } from './plain-node/mount-plain-node.js';

// The README's example adapter (plain node:http, written against @sessauth/core and
// @sessauth/core/adapter only) passes the whole HTTP suite over the memory store.
// test/readme-example.test.ts proves the README shows these files verbatim.
describeAdapterConformance(
  'plain node:http (README example) x memory',
  {
    mountApp: mountPlainNode,
    makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }),
  },
  // A bare node:http server has no notion of mounting under a path.
  { skip: ['mount/'] },
);

/** Every test name vitest registered in this file, at any depth. */
function registeredNames(tasks: ReadonlyArray<{ type: string; name: string; tasks?: unknown }>): string[] {
  return tasks.flatMap((task) =>
    task.type === 'suite' ? registeredNames(task.tasks as ReadonlyArray<{ type: string; name: string }>) : [task.name],
  );
}

describe('the HTTP suite registers exactly ADAPTER_TEST_IDS', () => {
  it('each id once, in the listed order, and nothing else', ({ task }) => {
    const suite = task.file.tasks.find((child) => child.name.startsWith('sessauth HTTP conformance: plain node:http'));
    expect(suite, 'the conformance describe of this file').toBeDefined();
    const ids = registeredNames(suite === undefined ? [] : [suite]).map((name) => name.slice(0, name.indexOf(': ')));
    expect(ids).toEqual([...ADAPTER_TEST_IDS]);
  });
});
