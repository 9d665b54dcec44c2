import type { Logger } from '@sessauth/core';
import { guard } from './guard.js';
import type { RedisLike } from './redis-like.js';

/** What one server said about its persistence; null where CONFIG GET was refused. */
export interface NodePersistence {
  readonly appendonly: string | null;
  readonly appendfsync: string | null;
}

export interface PersistenceReport {
  /** True when every node fsyncs its AOF on every write; null when that could not be read. */
  readonly durable: boolean | null;
  readonly nodes: readonly NodePersistence[];
}

export const PERSISTENCE_WARNING = 'sessauth.redis.persistence_may_lose_revocations';
export const PERSISTENCE_UNKNOWN = 'sessauth.redis.persistence_unknown';

/**
 * A revocation acknowledged by Redis must survive a crash, or a stolen refresh
 * token could work again after a restart. That needs `appendonly yes` and
 * `appendfsync always` on every master. Anything else (RDB snapshots only, or AOF
 * with `everysec`, which can lose the last second) is logged as a warning. Managed
 * services often refuse CONFIG: then the check says so and does not guess.
 */
export async function checkPersistence(client: RedisLike, logger: Logger, timeoutMs: number): Promise<PersistenceReport> {
  const servers = client.isCluster === true && client.nodes !== undefined ? client.nodes('master') : [client];
  const nodes = await Promise.all(servers.map((server) => readNode(server, timeoutMs)));
  let durable: boolean | null = true;
  nodes.forEach((node, index) => {
    if (node.appendonly === null || node.appendfsync === null) {
      durable = durable === false ? false : null;
      logger.warn(PERSISTENCE_UNKNOWN, { node: index, reason: 'CONFIG GET refused or failed' });
    } else if (node.appendonly !== 'yes' || node.appendfsync !== 'always') {
      durable = false;
      logger.warn(PERSISTENCE_WARNING, {
        node: index,
        appendonly: node.appendonly,
        appendfsync: node.appendfsync,
        advice: 'set appendonly yes and appendfsync always so acknowledged revocations survive a crash',
      });
    }
  });
  return { durable, nodes };
}

async function readNode(server: RedisLike, timeoutMs: number): Promise<NodePersistence> {
  const [appendonly, appendfsync] = await Promise.all(
    ['appendonly', 'appendfsync'].map((name) =>
      guard('checkPersistence', timeoutMs, () => server.config('GET', name)).then(
        (reply) => configValue(reply, name),
        () => null,
      ),
    ),
  );
  return { appendonly: appendonly ?? null, appendfsync: appendfsync ?? null };
}

/** CONFIG GET answers [name, value] (RESP2) or { name: value } (RESP3). */
function configValue(reply: unknown, name: string): string | null {
  if (Array.isArray(reply)) {
    const at = reply.findIndex((item) => String(item).toLowerCase() === name);
    return at >= 0 && at + 1 < reply.length ? String(reply[at + 1]) : null;
  }
  if (reply !== null && typeof reply === 'object' && name in reply) {
    return String((reply as Record<string, unknown>)[name]);
  }
  return null;
}
