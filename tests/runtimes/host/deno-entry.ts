import { MemorySessionStore, type PasswordHasher } from '@sessauth/core';
import { controlApp, type ServeApp } from './control-app.js';
import { argon2PasswordHasher } from '@sessauth/core/argon2';

// Deno: each test app on its own Deno.serve port; the peer is `info.remoteAddr`.
const serve: ServeApp = async (handler) => {
  const server = await new Promise<ReturnType<typeof Deno.serve>>((resolve) => {
    const started = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => resolve(started) }, (request, info) =>
      handler(request, info.remoteAddr.hostname),
    );
  });
  return { baseUrl: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
};

const hasher: PasswordHasher = argon2PasswordHasher;
const cell = { store: new MemorySessionStore() };
const control = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, controlApp(cell, hasher, serve));
console.log(`SESSAUTH_CONTROL http://127.0.0.1:${control.addr.port}`);
