import { describeAdapterConformance } from '@sessauth/conformance';
import { bundleEntry } from '../src/bundle.js';
import { REMOTE_SKIP, remoteCell } from '../src/remote-cell.js';
import { runtimeCommand, startRuntimeProcess } from '../src/runtime-process.js';
import { memoryCell, redisCell, sqliteCell, type StartOn } from '../src/store-cells.js';

// Deno: Deno.serve, the peer from info.remoteAddr; the WASM argon2id (as on Deno Deploy) in the
// memory cell, the native one (which the Deno CLI loads) in the store cells.
const deno: StartOn = async (env) => startRuntimeProcess(runtimeCommand('deno', await bundleEntry('deno')), env);
const denoNative: StartOn = (env) => deno({ ...env, SESSAUTH_CELL_HASHER: 'native' });

describeAdapterConformance('deno (Deno.serve, fetch handler, WASM argon2id) x memory', remoteCell(memoryCell(deno), 'fetch'), { skip: REMOTE_SKIP });
describeAdapterConformance('deno (Deno.serve, Hono) x redis (ioredis)', remoteCell(redisCell(denoNative), 'hono'), { skip: REMOTE_SKIP });
describeAdapterConformance('deno (Deno.serve, fetch handler) x sqlite (node:sqlite, Kysely)', remoteCell(sqliteCell(denoNative), 'fetch'), {
  skip: REMOTE_SKIP,
});
