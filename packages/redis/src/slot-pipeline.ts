import type { RedisLike, RedisNodeLike, RedisPipelineLike } from './redis-like.js';

/**
 * Runs commands that all touch one slot (`slot`) in one pipeline, and returns one `[error, reply]`
 * per command. On one server, the client's own pipeline. On a cluster, the pipeline of the one
 * connection to the primary that serves the slot, never the `Cluster`'s: ioredis (5.x) routes each
 * command of a cluster pipeline on its own, and while its slot map has no usable owner for the slot
 * (during a failover, or after a `MOVED` through `natMap`) it picks a random node per command. One
 * pipeline can then be split over two connections: the part on the second connection waits for the
 * rest and is never written, yet its replies are expected there, so every later reply on that
 * connection goes to the wrong command for as long as the connection lives (the failover soak saw a
 * session's owner read answered with another write's reply, and live sessions refused as not found;
 * a `WAIT` reply could as well be taken for another write's). A connection of its own cannot be
 * split. A slot without a known, ready primary is a store fault (the call fails closed, 503), and the
 * slot map is read again for the next call.
 */
export async function execForSlot(
  client: RedisLike,
  slot: number,
  queue: (pipeline: RedisPipelineLike) => void,
): Promise<Array<[error: Error | null, reply: unknown]>> {
  const pipeline = await pipelineForSlot(client, slot);
  queue(pipeline);
  const replies = await pipeline.exec();
  if (replies === null) throw new Error('redis store: the pipeline was discarded');
  // The slot moved (a failover): the node's connection does not follow redirections as the
  // `Cluster` does, so the call fails closed and the next one asks the fresh slot map.
  if (client.isCluster === true && replies.some(([error]) => error !== null && /^(MOVED|ASK) /.test(error.message))) {
    client.refreshSlotsCache?.();
  }
  return replies;
}

async function pipelineForSlot(client: RedisLike, slot: number): Promise<RedisPipelineLike> {
  if (client.pipeline === undefined) throw new Error('redis store: the client has no pipeline()');
  if (client.isCluster !== true) return client.pipeline();
  const owner = client.slots?.[slot]?.[0];
  const node = owner === undefined ? undefined : client.nodes?.('master').find((candidate) => nodeKey(candidate) === owner);
  if (node?.pipeline === undefined || !(await isReady(node))) {
    client.refreshSlotsCache?.();
    throw new Error(`redis store: no ready primary is known for slot ${slot}`);
  }
  return node.pipeline();
}

/**
 * Whether the node takes commands. ioredis opens a node's connection on its first command: one the
 * router has not used yet (`wait`) is opened here, and one being opened is awaited (the store
 * call's deadline bounds both). A node that lost its connection (`reconnecting`) fails at once.
 */
async function isReady(node: RedisNodeLike): Promise<boolean> {
  if (node.status === 'ready') return true;
  const { once, off } = node;
  if (!['wait', 'connecting', 'connect'].includes(node.status ?? '') || once === undefined || off === undefined) return false;
  await new Promise<void>((resolve) => {
    const settled = () => {
      for (const event of SETTLING) off.call(node, event, settled);
      resolve();
    };
    for (const event of SETTLING) once.call(node, event, settled);
    if (node.status === 'wait') node.connect?.().catch(() => undefined);
  });
  return node.status === 'ready';
}

const SETTLING = ['ready', 'close', 'end'] as const;

/** How ioredis names a node in `Cluster.slots`: `host:port`. */
function nodeKey(node: RedisNodeLike): string | undefined {
  const { host, port } = node.options ?? {};
  return host === undefined || port === undefined ? undefined : `${host}:${port}`;
}
