import type { PasswordHasher } from '@sessauth/core';
import { openNodeSqlite } from '../../../examples/deno/src/node-sqlite.js';
import { cellSettings, openCell } from './open-cell.js';
import { controlApp, type ServeApp } from './control-app.js';
import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';

// Deno: each test app on its own Deno.serve port; the peer is `info.remoteAddr`.
const serve: ServeApp = async (handler) => {
  // The address is known when Deno.serve returns; onListen only silences its banner.
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, (request, info) => handler(request, info.remoteAddr.hostname));
  return { baseUrl: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
};

// The WASM argon2id, as on Deno Deploy; the Deno CLI also loads the native one (--allow-ffi),
// which the store cells use (the WASM one costs several times more per login).
const hasher: PasswordHasher = Deno.env.get('SESSAUTH_CELL_HASHER') === 'native' ? argon2PasswordHasher : createWasmArgon2PasswordHasher();
const cell = await openCell(
  cellSettings((name) => Deno.env.get(name)),
  (file) => openNodeSqlite(file),
);
const control = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, controlApp(cell, hasher, serve));
console.log(`SESSAUTH_CONTROL http://127.0.0.1:${control.addr.port}`);
