import { describeAdapterConformance } from '@sessauth/conformance';
import { MemorySessionStore } from '@sessauth/core';
import { mountNest } from './support/conformance-nest-app.js';

// The whole HTTP conformance suite against a real Nest app on @nestjs/platform-fastify, over a
// socket on 127.0.0.1, with the guard registered globally.
describeAdapterConformance(
  'nestjs (platform-fastify) x memory',
  { mountApp: mountNest('fastify'), makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }) },
  { checkOpenApi: true },
);
