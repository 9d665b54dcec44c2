import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest, longest first (measured on CI's two cores). Without a cache (a
 * clean clone) vitest starts the largest files first, and the matrix's are three lines each: they
 * ran last, one after the other, while the other worker had nothing left (CI lost about four
 * minutes to it). A file missing here keeps vitest's own order after these.
 */
const LONGEST_FIRST = [
  'tests/packaging/test/packaging.test.ts',
  'tests/matrix/test/fetch.test.ts',
  'tests/matrix/test/fastify.test.ts',
  'tests/matrix/test/express.test.ts',
  'tests/matrix/test/koa.test.ts',
  'tests/browser-client/test/express.test.ts',
  'tests/browser-client/test/fastify.test.ts',
  'tests/nextjs/test/nextjs.test.ts',
  'packages/kysely/test/cli.test.ts',
  'tests/browser-client/test/dpop.test.ts',
  'packages/opentelemetry/test/instrumented-conformance.test.ts',
  'tests/examples/test/examples-http.test.ts',
  'tests/matrix/test/freshness.test.ts',
  'tests/browser-admin/test/admin-listing.test.ts',
  'tests/runtimes/test/workerd.test.ts',
  'tests/runtimes/test/deno.test.ts',
  'tests/runtimes/test/bun.test.ts',
];

const ROOT = fileURLToPath(new URL('.', import.meta.url));

class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(ROOT, file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // A stable sort: the unlisted files keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'tests/*/vitest.config.ts'],
    // Two workers on CI's two cores: most files wait on sockets and databases, not the CPU. The
    // suites that load the machine on purpose (faults) or spawn runtimes run afterwards, each in a
    // group of its own, one file at a time (`sequence.groupOrder` and a single fork in their configs). A
    // project cannot set a worker count of its own in Vitest 3.
    maxWorkers: 2,
    minWorkers: 1,
    sequence: { sequencer: LongestFirstSequencer },
  },
});
