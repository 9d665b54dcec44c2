import type { ChildProcess } from 'node:child_process';

export interface StopProcessOptions {
  /**
   * The child was spawned `detached` and leads its own process group: the signal goes to the
   * whole group, so what it started itself (a bundler, a framework's workers) stops with it.
   */
  readonly group?: boolean;
  /** How long it has to exit after SIGTERM before it gets SIGKILL. @default 5000 */
  readonly graceMs?: number;
}

/** Stops a child and waits for its exit: SIGTERM, then SIGKILL after the grace period. */
export async function stopProcess(child: ChildProcess, options: StopProcessOptions = {}): Promise<void> {
  const { group = false, graceMs = 5_000 } = options;
  const pid = child.pid;
  if (child.exitCode !== null || child.signalCode !== null || pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = (signal: NodeJS.Signals): void => {
    try {
      if (group) process.kill(-pid, signal);
      else child.kill(signal);
    } catch {
      // Gone already (ESRCH): nothing left to stop.
    }
  };
  send('SIGTERM');
  const timer = setTimeout(() => send('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
