import { Cluster, Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisRateLimitStore, RedisSessionStore } from '../src/index.js';

// Refused when the store is built: options under which the store would answer wrongly, not slowly.
// The clients are lazy and never connect: construction alone decides.
const opened: Array<Redis | Cluster> = [];
function lazy<C extends Redis | Cluster>(client: C): C {
  opened.push(client);
  return client;
}
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});
const NODES = [{ host: '127.0.0.1', port: 7000 }];

describe('client options the Redis stores refuse', () => {
  it("the session store refuses ioredis' own keyPrefix (its scripts build keys the prefix would not reach)", () => {
    expect(() => new RedisSessionStore({ client: lazy(new Redis({ lazyConnect: true, keyPrefix: 'app:' })) })).toThrow(
      /RedisSessionStore: the client's own keyPrefix is not supported.*set the store's keyPrefix option/,
    );
    expect(() => new RedisSessionStore({ client: lazy(new Cluster(NODES, { lazyConnect: true, keyPrefix: 'app:' })) })).toThrow(TypeError);
    expect(() => new RedisSessionStore({ client: lazy(new Cluster(NODES, { lazyConnect: true, redisOptions: { keyPrefix: 'app:' } })) })).toThrow(
      TypeError,
    );
    // The store's own prefix is the way.
    expect(() => new RedisSessionStore({ client: lazy(new Redis({ lazyConnect: true })), keyPrefix: 'app:' })).not.toThrow();
  });

  it("the rate limiter keeps working with ioredis' keyPrefix (its script touches only the keys it is passed)", () => {
    expect(() => new RedisRateLimitStore({ client: lazy(new Redis({ lazyConnect: true, keyPrefix: 'app:' })) })).not.toThrow();
  });

  it('both refuse a cluster client with enableAutoPipelining, and accept it on one server', () => {
    for (const Store of [RedisSessionStore, RedisRateLimitStore]) {
      expect(() => new Store({ client: lazy(new Cluster(NODES, { lazyConnect: true, enableAutoPipelining: true })) })).toThrow(
        /a cluster client with enableAutoPipelining is not supported/,
      );
      expect(() => new Store({ client: lazy(new Cluster(NODES, { lazyConnect: true })) })).not.toThrow();
      expect(() => new Store({ client: lazy(new Redis({ lazyConnect: true, enableAutoPipelining: true })) })).not.toThrow();
    }
  });
});
