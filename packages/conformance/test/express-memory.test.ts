import { MemorySessionStore } from '@sessauth/core';
import { describeAdapterConformance } from '../src/index.js';
import { mountExpress } from './mount-express.js';

describeAdapterConformance('express x memory', {
  mountApp: mountExpress,
  makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }),
});
