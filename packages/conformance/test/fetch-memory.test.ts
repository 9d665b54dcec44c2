import { MemorySessionStore } from '@sessauth/core';
import { describeAdapterConformance } from '../src/index.js';
import { mountFetch } from './mount-fetch.js';

describeAdapterConformance('fetch x memory', {
  mountApp: mountFetch,
  makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }),
});
