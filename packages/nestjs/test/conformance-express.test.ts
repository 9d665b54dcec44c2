import { describeAdapterConformance } from '@sessauth/conformance';
import { MemorySessionStore } from '@sessauth/core';
import { mountNest } from './support/conformance-nest-app.js';

// The whole HTTP conformance suite against a real Nest app on @nestjs/platform-express, over a
// socket on 127.0.0.1; every answer is also checked against the core's OpenAPI description.
describeAdapterConformance(
  'nestjs (platform-express) x memory',
  { mountApp: mountNest('express'), makeStore: async () => ({ store: new MemorySessionStore(), close: async () => {} }) },
  { checkOpenApi: true },
);
