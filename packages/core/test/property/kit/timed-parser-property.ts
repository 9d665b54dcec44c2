import fc from 'fast-check';

/** What one call of a parser did: returned a value, or threw. */
export type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

/** Above this, an input is re-run before it counts as slow. */
export const SLOW_INPUT_MS = 1;
/** Re-runs of a slow input; only the fastest counts, so GC or a busy neighbour cannot fail a test. */
const RERUNS = 5;

/**
 * A property over one parser: every generated input is parsed under a stopwatch and its
 * outcome handed to `check`, which throws when the outcome is not a documented one.
 * An input slower than 1 ms is run 5 more times; it fails only when the fastest of
 * those still exceeds 1 ms, which a super-linear regular expression does on its bad
 * inputs, while a GC pause does not five times in a row. A re-run costs the smaller of
 * its wall time and the process's CPU time: a neighbour that takes the core away
 * inflates only the first, a GC helper thread only the second, the parser's own work
 * both. So a machine shared with other test runs cannot fail the property.
 */
export function timedParserProperty<T, R>(
  inputs: fc.Arbitrary<T>,
  parse: (input: T) => R,
  check: (input: T, outcome: Outcome<R>) => void,
): fc.IPropertyWithHooks<[T]> {
  return fc.property(inputs, (input) => {
    const first = runSync(parse, input);
    if (first.ms > SLOW_INPUT_MS) failIfStillSlow(fastestOf(() => workMs(() => runSync(parse, input).ms)));
    check(input, first.outcome);
  });
}

/** The same for a parser that answers with a promise (token verification, the guard). */
export function timedAsyncParserProperty<T, R>(
  inputs: fc.Arbitrary<T>,
  parse: (input: T) => Promise<R>,
  check: (input: T, outcome: Outcome<R>) => void,
): fc.IAsyncPropertyWithHooks<[T]> {
  return fc.asyncProperty(inputs, async (input) => {
    const first = await runAsync(parse, input);
    if (first.ms > SLOW_INPUT_MS) {
      const times: number[] = [];
      for (let i = 0; i < RERUNS; i++) {
        const cpuBefore = process.cpuUsage();
        const wallMs = (await runAsync(parse, input)).ms;
        times.push(Math.min(wallMs, cpuMs(process.cpuUsage(cpuBefore))));
      }
      failIfStillSlow(Math.min(...times));
    }
    check(input, first.outcome);
  });
}

function runSync<T, R>(parse: (input: T) => R, input: T): { ms: number; outcome: Outcome<R> } {
  const start = performance.now();
  let outcome: Outcome<R>;
  try {
    outcome = { ok: true, value: parse(input) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  return { ms: performance.now() - start, outcome };
}

async function runAsync<T, R>(parse: (input: T) => Promise<R>, input: T): Promise<{ ms: number; outcome: Outcome<R> }> {
  const start = performance.now();
  let outcome: Outcome<R>;
  try {
    outcome = { ok: true, value: await parse(input) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  return { ms: performance.now() - start, outcome };
}

/** The smaller of a run's wall time and the CPU time the process spent meanwhile. */
function workMs(run: () => number): number {
  const cpuBefore = process.cpuUsage();
  const wallMs = run();
  return Math.min(wallMs, cpuMs(process.cpuUsage(cpuBefore)));
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function fastestOf(timeOne: () => number): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RERUNS; i++) fastest = Math.min(fastest, timeOne());
  return fastest;
}

function failIfStillSlow(fastestMs: number): void {
  if (fastestMs > SLOW_INPUT_MS) {
    throw new Error(`slow input: the fastest of ${RERUNS} re-runs took ${fastestMs.toFixed(3)} ms (limit ${SLOW_INPUT_MS} ms)`);
  }
}

/** A one-line description of an unexpected throw, for the failure message. */
export function describeThrow(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `a non-Error value: ${String(error)}`;
}

/**
 * A cheap assertion for checks that run 10^5 times (vitest's `expect` costs about
 * 10 µs a call, more than most parsers under test). `describe` runs only on failure.
 */
export function ensure(condition: boolean, describe: () => string): asserts condition {
  if (!condition) throw new Error(describe());
}
