import type { PasswordHasher } from '@sessauth/core';
import { createWasmArgon2PasswordHasher } from '@sessauth/core/argon2-wasm';
import { measureHasher } from './measure-hasher.js';

// Run by Bun or Deno from a bundle: argv says which hasher and how many rounds; one JSON line out.
declare const process: { argv: string[] } | undefined;
declare const Deno: { args: string[] } | undefined;
const args = typeof Deno !== 'undefined' ? Deno.args : (process?.argv.slice(2) ?? []);
const [which = 'wasm', rounds = '20'] = args;
const hasher: PasswordHasher = which === 'native' ? (await import('@sessauth/core/argon2')).argon2PasswordHasher : createWasmArgon2PasswordHasher();
console.log(JSON.stringify(await measureHasher(hasher, Number(rounds))));
