import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { fuzzParameters, type RunCounts } from '../../../packages/core/test/property/kit/fuzz-settings.js';
import { createFuzzEngine, LevelLog } from './fuzz-engine.js';
import type { MountFuzzApp } from './fuzz-mounts.js';
import { csrfPair, liveMaterial } from './live-material.js';
import { exchange } from './raw-exchange.js';
import { rawRequestSpec } from './raw-request-arbitrary.js';
import { describeRequest, renderRequest, type Material, type RawRequestSpec } from './raw-request.js';

/** Requests sent at once in one generated case (one connection each). */
export const BATCH = 10;
/** Far above any answer of a healthy server; reaching it means a request hung. */
const DEADLINE_MS = 10_000;
const HEAP_GROWTH_LIMIT = 50 * 1024 * 1024;

/** Errors a client causes by breaking its own request: Node's parser errors, resets, aborts. */
function isClientFault(error: { readonly code: string | undefined; readonly message: string }): boolean {
  return (
    (error.code?.startsWith('HPE_') ?? false) ||
    ['ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE'].includes(error.code ?? '') ||
    error.message === 'aborted'
  );
}

/** One generated request over its own socket. */
function send(port: number, spec: RawRequestSpec, material: Material) {
  return exchange({
    port,
    bytes: renderRequest(spec, material),
    method: spec.method,
    delivery: spec.delivery,
    abortAt: spec.abortAt,
    halfClose: spec.framing === 'short',
    deadlineMs: DEADLINE_MS,
  });
}

/** The heap after a full collection (`--expose-gc` switched on at run time for this process). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Generated raw HTTP requests against one adapter over a real socket on 127.0.0.1,
 * `BATCH` at a time. Properties: no 5xx, no request left unanswered (a hang), no
 * unhandled rejection or exception, no error-level log line, the server still serves
 * a well-formed request afterwards, and the heap grows by less than 50 MB after GC.
 */
export async function checkAdapterFuzz(name: string, mount: MountFuzzApp, batches: RunCounts): Promise<void> {
  const log = new LevelLog();
  const app = await mount(await createFuzzEngine(log));
  const escaped: string[] = [];
  const onEscape = (error: unknown) => escaped.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
  try {
    const csrf = await csrfPair(app.port);
    const material: Material = await liveMaterial(app.port, csrf);
    // Warm up (JIT, lazily built state) before the baseline, so only growth counts.
    const warmUp = fc.sample(rawRequestSpec, { numRuns: 50, seed: 1 });
    await Promise.all(warmUp.map((spec) => send(app.port, spec, material)));
    const baseline = heapAfterGc();
    await fc.assert(
      fc.asyncProperty(fc.array(rawRequestSpec, { minLength: BATCH, maxLength: BATCH }), async (specs) => {
        const current = await liveMaterial(app.port, csrf);
        const results = await Promise.all(specs.map((spec) => send(app.port, spec, current)));
        const problems: string[] = [];
        results.forEach((result, i) => {
          if (result.hung) problems.push(`no answer within ${DEADLINE_MS} ms to ${describeRequest(specs[i]!, current)}`);
          for (const status of result.statuses.filter((s) => s >= 500)) problems.push(`${status} for ${describeRequest(specs[i]!, current)}`);
        });
        if (problems.length > 0) throw new Error(problems.join('\n'));
      }),
      fuzzParameters(`raw-http/${name}`, batches),
    );
    // Aborted uploads end on the server after their client is gone: let them finish.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const alive = await send(
      app.port,
      {
        method: 'GET',
        target: '/auth/csrf/',
        version: 'HTTP/1.1',
        headers: [['Host', '127.0.0.1']],
        body: '',
        framing: 'exact',
        delivery: 'whole',
        abortAt: 1,
      },
      material,
    );
    expect(alive.statuses, 'a well-formed request after the fuzz').toEqual([200]);
    expect(escaped, 'unhandled rejections and exceptions').toEqual([]);
    expect(log.errors(), 'error-level log lines').toEqual([]);
    // A framework may report a client's broken request (a parse error, a reset); nothing else.
    const serverFaults = (app.frameworkErrors ?? []).filter((error) => !isClientFault(error));
    expect(serverFaults, 'errors the framework reported that are not client faults').toEqual([]);
    const growth = heapAfterGc() - baseline;
    expect(growth, `heap growth after GC: ${(growth / 1048576).toFixed(1)} MB`).toBeLessThan(HEAP_GROWTH_LIMIT);
  } finally {
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
    await app.close();
  }
}
