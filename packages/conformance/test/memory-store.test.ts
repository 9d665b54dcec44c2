import { MemoryRateLimitStore } from '../../core/src/rate-limit/memory-rate-limit-store.js';
import { MemorySessionStore } from '../../core/src/store/memory-store.js';
import { describeRateLimitConformance } from '../src/rate-limit/describe-rate-limit-conformance.js';
import { describeStoreConformance } from '../src/store/describe-store-conformance.js';

describeStoreConformance('memory', async () => ({ store: new MemorySessionStore(), close: async () => {} }));

describeRateLimitConformance('memory', async () => ({ store: new MemoryRateLimitStore(), close: async () => {} }));
