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
const turbo = spawnSync(`${root}node_modules/.bin/turbo`, ['run', 'typecheck', 'build', 'lint:package', '--output-logs=errors-only'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});
if (turbo.status !== 0) {
  console.log('\n0 passed, 1 failed (typecheck, build or package lint)');
  process.exit(1);
}

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);

let totals = { passed: 0, failed: 0, skipped: 0 };
try {
  const result = JSON.parse(readFileSync(`${root}${report}`, 'utf8'));
  totals = { passed: result.numPassedTests, failed: result.numFailedTests, skipped: result.numPendingTests + result.numTodoTests };
  // A file that failed to load counts as a failure even though it ran no test.
  const brokenFiles = result.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0).length;
  totals.failed += brokenFiles;
} catch {
  totals.failed += 1;
}
if (totals.passed === 0) totals.failed += 1;
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(run.status === 0 && totals.failed === 0 ? 0 : 1);
