import { MemoryRateLimitStore } from '../../core/src/rate-limit/memory-rate-limit-store.js';
import { MemorySessionStore } from '../../core/src/store/memory-store.js';
import { describeRateLimitConformance } from '../src/rate-limit/describe-rate-limit-conformance.js';
import { describeStoreConformance } from '../src/store/describe-store-conformance.js';

describeStoreConformance('memory', async () => {
  const store = new MemorySessionStore();
  return {
    store,
    close: async () => {},
    // An in-process store has no second process to share with: its "second instance" is
    // a second handle on the same data. This runs the cross-instance cases against the
    // reference store (they must pass on a correct one); Redis and Kysely prove the
    // real thing with their own connections.
    openSecondInstance: async () => ({ store, close: async () => {} }),
  };
});

describeRateLimitConformance('memory', async () => ({ store: new MemoryRateLimitStore(), close: async () => {} }));
