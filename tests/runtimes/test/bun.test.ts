import { describeAdapterConformance } from '@sessauth/conformance';
import { bundleEntry } from '../src/bundle.js';
import { REMOTE_SKIP, remoteCell } from '../src/remote-cell.js';
import { runtimeCommand, startRuntimeProcess } from '../src/runtime-process.js';
import { memoryCell, redisCell, sqliteCell, type StartOn } from '../src/store-cells.js';

// Bun: Bun.serve, the peer from server.requestIP, the native argon2id (@node-rs/argon2).
const bun: StartOn = async (env) => startRuntimeProcess(runtimeCommand('bun', await bundleEntry('bun')), env);

describeAdapterConformance('bun (Bun.serve, fetch handler) x memory', remoteCell(memoryCell(bun), 'fetch'), { skip: REMOTE_SKIP });
describeAdapterConformance('bun (Bun.serve, Hono) x redis (ioredis)', remoteCell(redisCell(bun), 'hono'), { skip: REMOTE_SKIP });
describeAdapterConformance('bun (Bun.serve, fetch handler) x sqlite (bun:sqlite, Kysely)', remoteCell(sqliteCell(bun), 'fetch'), {
  skip: REMOTE_SKIP,
});
