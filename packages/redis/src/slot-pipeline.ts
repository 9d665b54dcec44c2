import type { RedisLike, RedisPipelineLike } from './redis-like.js';

/**
 * Runs commands that all touch one slot (`slot`) in one pipeline, and returns one `[error, reply]`
 * per command: the `durability` setting's write script and its `WAIT`, which must meet one
 * connection. On one server, the client's own pipeline. On a cluster, the pipeline of the one
 * connection to the primary that serves the slot, never the `Cluster`'s: ioredis (5.x) routes each
 * command of a cluster pipeline on its own, and while its slot map has no usable owner for the slot
 * (during a failover, or after a `MOVED` through `natMap`) it picks a random node per command. One
 * pipeline can then be split over two connections: the part on the second connection waits for the
 * rest and is never written, yet its replies are expected there, so every later reply on that
 * connection goes to the wrong command for as long as the connection lives (the failover soak saw a
 * session's owner read answered with another write's reply; a `WAIT` reply could as well be taken
 * for another write's). A connection of its own cannot be split. A slot without a known, ready
 * primary is a store fault (the call fails closed, 503), and the slot map is read again. A node's
 * connection does not follow `MOVED` or `ASK`: a write to a slot that moved fails closed the same
 * way, and one to a slot being migrated (`ASK`, resharding) until its migration ends.
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
  if (client.isCluster === true && replies.some(([error]) => error !== null && /^(MOVED|ASK) /.test(error.message))) {
    refreshSlotMap(client);
  }
  return replies;
}

async function pipelineForSlot(client: RedisLike, slot: number): Promise<RedisPipelineLike> {
  if (client.pipeline === undefined) throw new Error('redis store: the client has no pipeline()');
  // One server, or a cluster client of another library that keeps no ioredis slot map: its own pipeline.
  if (client.isCluster !== true || client.slots === undefined || client.nodes === undefined) return client.pipeline();
  // A `Cluster` still connecting (or created with `lazyConnect` and never used) has no slot map yet.
  if (!(await becameReady(client))) throw new Error('redis store: the cluster client is not ready');
  const owner = client.slots[slot]?.[0];
  const node = owner === undefined ? undefined : client.nodes('master').find((candidate) => nodeKey(candidate) === owner);
  if (node?.pipeline === undefined || !(await becameReady(node))) {
    refreshSlotMap(client);
    throw new Error(`redis store: no ready primary is known for slot ${slot}`);
  }
  return node.pipeline();
}

/** How long one wait for a connection being opened lasts before the waiters are let go (and answered 503). */
const READY_WAIT_MS = 1000;
const OPENING = ['wait', 'connecting', 'connect'];
const SETTLING = ['ready', 'close', 'end'] as const;
/** One wait per connection being opened, shared by every call that meets it: three listeners, not three per call. */
const openings = new WeakMap<RedisLike, Promise<void>>();

/**
 * Whether the client or node takes commands. ioredis opens a cluster's node connection on its first
 * command: one the router has not used yet (`wait`) is opened here, and one being opened is awaited,
 * for at most `READY_WAIT_MS` (a primary loading its data stays `connect` for as long as that takes).
 * One that lost its connection (`reconnecting`, `close`, `end`) fails at once.
 */
async function becameReady(target: RedisLike): Promise<boolean> {
  if (target.status === 'ready') return true;
  if (!OPENING.includes(target.status ?? '') || target.once === undefined || target.off === undefined) return false;
  let opening = openings.get(target);
  if (opening === undefined) {
    opening = waitForSettling(target);
    openings.set(target, opening);
    if (target.status === 'wait') target.connect?.().catch(() => undefined);
  }
  await opening;
  return target.status === 'ready';
}

function waitForSettling(target: RedisLike): Promise<void> {
  const { once, off } = target;
  return new Promise<void>((resolve) => {
    const settled = () => {
      clearTimeout(timer);
      for (const event of SETTLING) off?.call(target, event, settled);
      openings.delete(target);
      resolve();
    };
    // Unref'd: a pending wait alone must not keep the process alive.
    const timer = setTimeout(settled, READY_WAIT_MS).unref();
    for (const event of SETTLING) once?.call(target, event, settled);
  });
}

/** At most one slot map refresh per client in this interval: each opens a connection of its own. */
const REFRESH_INTERVAL_MS = 100;
const lastRefresh = new WeakMap<RedisLike, number>();

function refreshSlotMap(client: RedisLike): void {
  const now = Date.now();
  if (now - (lastRefresh.get(client) ?? Number.NEGATIVE_INFINITY) < REFRESH_INTERVAL_MS) return;
  lastRefresh.set(client, now);
  client.refreshSlotsCache?.();
}

/** How ioredis names a node in `Cluster.slots`: `host:port`. */
function nodeKey(node: RedisLike): string | undefined {
  const { host, port } = node.options ?? {};
  return host === undefined || port === undefined ? undefined : `${host}:${port}`;
}
