import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import argon2 from 'argon2-wasm-edge/wasm/argon2.wasm';
import blake2b from 'argon2-wasm-edge/wasm/blake2b.wasm';

// workerd stops its clocks while code runs (a Spectre defence), so the worker cannot time
// itself: the bench times each request from outside, `/hash`, `/verify` and `/noop` apart.
const hasher = createWasmArgon2PasswordHasher({ modules: { argon2, blake2b } });
let stored: string | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    stored ??= await hasher.hash('correct horse battery staple');
    if (pathname === '/hash') await hasher.hash('correct horse battery staple');
    if (pathname === '/verify' && !(await hasher.verify(stored, 'correct horse battery staple'))) return new Response('refused', { status: 500 });
    return new Response('ok');
  },
};
