import { MemorySessionStore } from '@sessauth/core';
import { describeAdapterConformance } from '../src/index.js';
import { mountKoa } from './mount-koa.js';

describeAdapterConformance('koa x memory', {
  mountApp: mountKoa,
  makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }),
});
