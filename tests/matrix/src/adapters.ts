import type { MountApp } from '@sessauth/conformance';
import { mountExpress } from './mounts/mount-express.js';
import { mountFastify } from './mounts/mount-fastify.js';
import { mountFetch } from './mounts/mount-fetch.js';
import { mountKoa } from './mounts/mount-koa.js';

export const ADAPTERS: Readonly<Record<string, MountApp>> = {
  express: mountExpress,
  fastify: mountFastify,
  koa: mountKoa,
  fetch: mountFetch,
};
