// CI: fails on a high- or critical-severity advisory against a package in pnpm-lock.yaml.
//
// 1. `pnpm audit --audit-level high` asks the registry's audit endpoint. Its verdict is final
//    when it answers.
// 2. When the endpoint cannot be reached (no network, or a registry mirror that refuses the
//    audit POST, as this project's machines do), the run says so loudly and falls back to the
//    checked-in list .ci/advisory-floors.json: every version the lockfile resolves, direct or
//    transitive, is checked against those vulnerable ranges. Moderate and low ones are listed
//    without failing. The fallback is only as fresh as that list: keep it reviewed.
//
// Usage: node .ci/audit-dependencies.mjs [--offline] [path/to/pnpm-lock.yaml]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const offlineOnly = args.includes('--offline');
const lockfile = args.find((arg) => !arg.startsWith('--')) ?? `${root}pnpm-lock.yaml`;
const FAILING = new Set(['high', 'critical']);

if (!offlineOnly) {
  const verdict = onlineAudit();
  if (verdict !== 'unreachable') process.exit(verdict === 'clean' ? 0 : 1);
}
process.exit(offlineAudit(lockfile) ? 0 : 1);

/** 'clean', 'vulnerable', or 'unreachable' (the endpoint gave no verdict). */
function onlineAudit() {
  const run = spawnSync('npx', ['--yes', '-p', 'pnpm@10.34.9', 'pnpm', 'audit', '--audit-level', 'high', '--json'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = null;
  }
  if (report === null || report.error !== undefined || report.metadata === undefined) {
    const why = report?.error?.message ?? (run.error?.message || run.stderr.trim().split('\n').pop() || 'no answer');
    console.error(`\n!!! AUDIT ENDPOINT UNREACHABLE: pnpm audit gave no verdict (${why}).`);
    console.error('!!! Falling back to the checked-in advisory list .ci/advisory-floors.json (offline check of pnpm-lock.yaml).\n');
    return 'unreachable';
  }
  const counts = report.metadata.vulnerabilities ?? {};
  const failing = (counts.high ?? 0) + (counts.critical ?? 0);
  console.log(`pnpm audit: ${JSON.stringify(counts)}`);
  if (failing > 0) {
    for (const advisory of Object.values(report.advisories ?? {})) {
      if (FAILING.has(advisory.severity))
        console.error(`  ${advisory.severity}: ${advisory.module_name} ${advisory.vulnerable_versions} (${advisory.url})`);
    }
    console.error(`audit: ${failing} high or critical advisories in the lockfile.`);
    return 'vulnerable';
  }
  return 'clean';
}

/** True when no resolved version falls in a high or critical advisory's range. */
function offlineAudit(path) {
  const { reviewed, advisories } = JSON.parse(readFileSync(`${root}.ci/advisory-floors.json`, 'utf8'));
  const resolved = resolvedVersions(readFileSync(path, 'utf8'));
  let failed = 0;
  for (const advisory of advisories) {
    for (const version of resolved.get(advisory.package) ?? []) {
      if (!satisfies(version, advisory.vulnerable)) continue;
      const line = `${advisory.severity}: ${advisory.package}@${version} (${advisory.id}: ${advisory.title}; vulnerable ${advisory.vulnerable})`;
      if (FAILING.has(advisory.severity)) {
        failed += 1;
        console.error(`  ${line}`);
      } else {
        console.log(`  (not failing) ${line}`);
      }
    }
  }
  const packages = [...resolved.values()].reduce((n, versions) => n + versions.size, 0);
  console.log(`offline audit: ${packages} resolved package versions checked against ${advisories.length} advisories (list reviewed ${reviewed}).`);
  if (failed > 0) console.error(`audit: ${failed} high or critical advisories in ${path}.`);
  return failed === 0;
}

/** name -> versions, from the `packages:` keys of a pnpm v9 lockfile (`  name@1.2.3:` or `  '@scope/name@1.2.3':`). */
function resolvedVersions(text) {
  const section = text.slice(text.indexOf('\npackages:\n'), text.indexOf('\nsnapshots:\n') === -1 ? undefined : text.indexOf('\nsnapshots:\n'));
  const found = new Map();
  for (const match of section.matchAll(/^ {2}'?((?:@[^@/\s]+\/)?[^@\s']+)@(\d[^:'(\s]*)'?:/gm)) {
    const [, name, version] = match;
    if (!found.has(name)) found.set(name, new Set());
    found.get(name).add(version);
  }
  if (found.size === 0) throw new Error(`no packages found in ${lockfile}: not a pnpm lockfile?`);
  return found;
}

/** `version` in `range`: comparator sets (`<`, `<=`, `>`, `>=`, `=`) joined by `||`. */
function satisfies(version, range) {
  return range.split('||').some((set) =>
    set
      .trim()
      .split(/\s+/)
      .every((comparator) => {
        const [, op, bound] = /^(<=|>=|<|>|=)?(.+)$/.exec(comparator);
        const order = compare(version, bound);
        return { '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0, '=': order === 0 }[op ?? '='];
      }),
  );
}

/** Semver order: numeric core, then a pre-release sorts before its release. */
function compare(a, b) {
  const [coreA, preA] = split(a);
  const [coreB, preB] = split(b);
  for (let i = 0; i < 3; i++) if (coreA[i] !== coreB[i]) return coreA[i] - coreB[i];
  if (preA === preB) return 0;
  if (preA === '') return 1;
  if (preB === '') return -1;
  const partsA = preA.split('.');
  const partsB = preB.split('.');
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i++) {
    const [x, y] = [partsA[i], partsB[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
    if (order !== 0) return order;
  }
  return 0;
}

function split(version) {
  const [core, ...pre] = version.split('+')[0].split('-');
  return [core.split('.').map(Number), pre.join('-')];
}
