import { MemorySessionStore } from '@sessauth/core';
import { describeAdapterConformance } from '../src/index.js';
import { mountFastify } from './mount-fastify.js';

describeAdapterConformance('fastify x memory', {
  mountApp: mountFastify,
  makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }),
});
