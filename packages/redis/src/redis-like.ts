/**
 * The part of an ioredis client (`Redis` or `Cluster`) that the store and the rate
 * limiter call, typed by structure so that users are not tied to one ioredis
 * version; any client with these methods works (wrap another library in a few
 * lines). Every method resolves with Redis' reply or rejects; none may queue
 * forever (see `recommendedRedisOptions`).
 */
export interface RedisLike {
  /** Run a cached script by its SHA-1; rejects with `NOSCRIPT ...` when the server lacks it. */
  evalsha(sha1: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** Run (and cache) a script by its source. */
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  hgetall(key: string): Promise<Record<string, string>>;
  del(...keys: string[]): Promise<number>;
  zadd(key: string, ...scoreMembers: (string | number)[]): Promise<number>;
  zrem(key: string, ...members: string[]): Promise<number>;
  zrevrangebyscore(
    key: string,
    max: number | string,
    min: number | string,
    withscores: 'WITHSCORES',
    limit: 'LIMIT',
    offset: number,
    count: number,
  ): Promise<string[]>;
  zscan(key: string, cursor: string, countToken: 'COUNT', count: number): Promise<[cursor: string, elements: string[]]>;
  /** `CONFIG GET name`, for the persistence check only (may be disabled on managed Redis). */
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
  /**
   * Commands sent in one write on one connection and answered together (ioredis `pipeline()`):
   * only for the `durability` setting, whose write script and its `WAIT` must meet one connection.
   * On a cluster the store takes the pipeline of the slot primary's node, never the `Cluster`'s.
   */
  pipeline?(): RedisPipelineLike;
  /** True on an ioredis `Cluster`. */
  readonly isCluster?: boolean;
  /**
   * The cluster's nodes (ioredis `Cluster.nodes('master')`): the persistence check asks each, and a
   * pipeline goes to the connection of its slot's primary.
   */
  nodes?(role: 'master'): RedisNodeLike[];
  /** On a cluster (ioredis `Cluster.slots`): per slot, the keys (`host:port`) of its nodes, primary first. */
  readonly slots?: ReadonlyArray<readonly string[] | undefined>;
  /** On a cluster: read the slot map again (ioredis `Cluster.refreshSlotsCache()`). */
  refreshSlotsCache?(): unknown;
  /**
   * The client's options, read once by the stores to refuse what they cannot work with: ioredis'
   * own `keyPrefix` (the session store builds some keys inside its scripts, where it does not
   * reach; use the store's `keyPrefix`) and `enableAutoPipelining` on a cluster. On a node, its
   * `host` and `port` name it in the cluster's `slots`.
   */
  readonly options?: {
    readonly keyPrefix?: string;
    readonly enableAutoPipelining?: boolean;
    readonly redisOptions?: { readonly keyPrefix?: string };
    readonly host?: string;
    readonly port?: number;
  };
  /** `'ready'` when it takes commands (ioredis `status`); `'wait'` before a lazy client's first. */
  readonly status?: string;
  /** Opens a connection not opened yet (ioredis connects a cluster's node on first use). */
  connect?(): Promise<void>;
  /** Connection events (`ready`, `close`, `end`), to wait for a connection being opened. */
  once?(event: 'ready' | 'close' | 'end', listener: () => void): unknown;
  off?(event: 'ready' | 'close' | 'end', listener: () => void): unknown;
}

/** One node of a cluster (an ioredis `Redis`), as `nodes()` returns it: `options.host:port` names it in `slots`. */
export type RedisNodeLike = RedisLike;

/** The part of an ioredis `Pipeline` the store uses (the `durability` setting only). */
export interface RedisPipelineLike {
  /** Only for the `durability` setting: the write script and its `WAIT` go in one pipeline (one connection, one node). */
  evalsha?(sha1: string, numkeys: number, ...args: (string | number)[]): unknown;
  /** Only for the `durability` setting, after `NOSCRIPT`. */
  eval?(script: string, numkeys: number, ...args: (string | number)[]): unknown;
  /** Only for the `durability` setting: `WAIT numreplicas timeout`. */
  wait?(numreplicas: number, timeout: number): unknown;
  /** One `[error, reply]` per queued command, in order. */
  exec(): Promise<Array<[error: Error | null, reply: unknown]> | null>;
}
