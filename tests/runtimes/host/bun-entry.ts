import { argon2PasswordHasher } from '@sessauth/core/argon2';
import { openBunSqlite } from '../../../examples/bun/src/bun-sqlite.js';
import { cellSettings, openCell } from './open-cell.js';
import { controlApp, type ServeApp } from './control-app.js';

// Bun: each test app on its own Bun.serve port; the peer is `server.requestIP(request)`.
const serve: ServeApp = async (handler) => {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request, bun) => handler(request, bun.requestIP(request)?.address),
  });
  return { baseUrl: `http://127.0.0.1:${server.port}`, close: async () => void (await server.stop(true)) };
};

const cell = await openCell(
  cellSettings((name) => Bun.env[name]),
  (file) => openBunSqlite(file),
);
const control = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: controlApp(cell, argon2PasswordHasher, serve) });
console.log(`SESSAUTH_CONTROL http://127.0.0.1:${control.port}`);
