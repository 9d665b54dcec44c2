import type { ChildProcess } from 'node:child_process';

export interface WaitUntilAnsweringOptions {
  /** The server being waited for: its early exit ends the wait with its output. */
  readonly child: ChildProcess;
  /** True once the server answers as it should (a refused connection counts as not yet). */
  readonly ready: () => Promise<boolean>;
  /** What the server printed, for the error. */
  readonly output: () => string;
  readonly name: string;
  /** @default 90 s (a cold start under a loaded CI machine) */
  readonly timeoutMs?: number;
}

/** Polls until the server answers, failing fast (with its output) when it exits or the time runs out. */
export async function waitUntilAnswering(options: WaitUntilAnsweringOptions): Promise<void> {
  const { child, ready, output, name, timeoutMs = 90_000 } = options;
  const deadline = Date.now() + timeoutMs;
  let last = 'not listening yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it answered:\n${output()}`);
    }
    try {
      if (await ready()) return;
      last = 'answered, not ready';
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${name} did not answer within ${timeoutMs / 1000} s (${last}):\n${output()}`);
}
