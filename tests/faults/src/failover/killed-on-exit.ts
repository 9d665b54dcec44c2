import type { ChildProcess } from 'node:child_process';

/**
 * SIGKILLs `child` if this process exits first (a test that timed out exits vitest's worker before
 * its `finally` can stop the servers it started; they would outlive the run).
 */
export function killedOnExit(child: ChildProcess): ChildProcess {
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  return child;
}
