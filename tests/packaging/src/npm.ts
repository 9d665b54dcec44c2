import { join } from 'node:path';
import { childEnv, runCommand, type CommandResult } from './run-command.js';

/**
 * npm, as a user runs it, with one download cache for every run (under os.tmpdir(),
 * beside the installed apps) and nothing that phones home besides the registry.
 */
export function npm(
  cacheRoot: string,
  cwd: string,
  args: readonly string[],
  allowFailure = false,
  env: NodeJS.ProcessEnv = {},
): Promise<CommandResult> {
  return runCommand('npm', [...args, '--cache', join(cacheRoot, 'npm-cache'), '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    allowFailure,
    env: childEnv({ ...env, npm_config_update_notifier: 'false' }),
  });
}

/** One package as `npm ls --all --json` shows it. */
interface LsNode {
  readonly version?: string;
  /** Where the copy is on disk (`--long`): a deduped reference has its target's path. */
  readonly path?: string;
  readonly dependencies?: Readonly<Record<string, LsNode>>;
}

/**
 * Every installed copy of `name` (its versions), as `npm ls` walks the tree: a
 * `deduped` reference to a copy already counted is not counted again. `npm ls`
 * exits non-zero on an unmet optional peer, so its exit code is not the verdict.
 */
export async function installedCopies(cacheRoot: string, app: string, name: string): Promise<string[]> {
  const { stdout } = await npm(cacheRoot, app, ['ls', name, '--all', '--json', '--long'], true);
  const copies = new Map<string, string>();
  const walk = (node: LsNode) => {
    for (const [child, entry] of Object.entries(node.dependencies ?? {})) {
      if (child === name && entry.path !== undefined && entry.version !== undefined) copies.set(entry.path, entry.version);
      walk(entry);
    }
  };
  walk(JSON.parse(stdout) as LsNode);
  return [...copies.values()];
}
