import { spawn } from 'node:child_process';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CommandOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Resolve with the result instead of rejecting when the command exits non-zero. */
  readonly allowFailure?: boolean;
}

/**
 * The environment of a child process: this one's, without the variables vitest sets
 * for its own workers (a vitest inside an app must not take them for its own).
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  return { ...env, ...extra };
}

/** Runs a command to its end; a failure carries the command line and its output, so a red run says why. */
export function runCommand(command: string, args: readonly string[], options: CommandOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code === 0 || options.allowFailure === true) resolve(result);
      else reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${result.code}\n${tail(stdout)}\n${tail(stderr)}`));
    });
  });
}

function tail(text: string): string {
  return text.length > 6000 ? `…${text.slice(-6000)}` : text;
}

/** Runs `tasks` with at most `limit` in flight (two cores are shared by the whole suite). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
