import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The README's code blocks that name a file of this package: `<!-- file: path -->` then a ts fence. */
function namedBlocks(markdown: string): Array<{ path: string; code: string }> {
  const blocks = markdown.matchAll(/<!-- file: (\S+) -->\n```ts\n([\s\S]*?)```\n/g);
  return [...blocks].map((match) => ({ path: match[1]!, code: match[2]! }));
}

// The example adapter in the README is the one test/plain-node-adapter.test.ts runs the
// whole HTTP suite over: a change to either without the other fails here.
describe('the README shows the tested example adapter verbatim', () => {
  const blocks = namedBlocks(read('README.md'));

  it('names the adapter, its mount and its test', () => {
    expect(blocks.map((block) => block.path)).toEqual([
      'test/plain-node/plain-node-adapter.ts',
      'test/plain-node/mount-plain-node.ts',
      'test/plain-node-adapter.test.ts',
    ]);
  });

  it.each(blocks.map((block) => [block.path, block.code] as const))('%s is the file as it is', (path, code) => {
    expect(code).toBe(read(path));
  });
});
