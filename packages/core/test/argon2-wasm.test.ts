import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createSessauth, IntegrationError, MemorySessionStore, createPasswordAuthenticator, type PasswordHasher } from '../src/index.js';
import { argon2PasswordHasher, createArgon2PasswordHasher } from '../src/password/argon2.js';
import { createWasmArgon2PasswordHasher } from '../src/password/argon2-wasm.js';

const wasm = createWasmArgon2PasswordHasher();
const PASSWORDS = ['correct horse', 'pässwörd 🔑 日本語', 'x'.repeat(1024)];

describe('createWasmArgon2PasswordHasher', () => {
  it('makes OWASP-baseline argon2id PHC strings with a fresh salt', async () => {
    const first = await wasm.hash('correct horse');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await wasm.hash('correct horse')).not.toBe(first);
  });

  it('tells onTurn of each hash and verification that ran: two turns, each with a run time', async () => {
    const turns: Array<{ waitMs: number; runMs: number }> = [];
    const observed = createWasmArgon2PasswordHasher({ onTurn: (turn) => turns.push(turn) });
    const hash = await observed.hash('correct horse');
    await expect(observed.verify(hash, 'correct horse')).resolves.toBe(true);
    expect(turns).toHaveLength(2);
    // argon2id at 19 MiB does real work: a run never takes no time at all.
    for (const turn of turns) expect(turn.runMs).toBeGreaterThan(0);
  });

  it.each(PASSWORDS)('a hash made by one implementation verifies on the other (%j)', async (password) => {
    const byWasm = await wasm.hash(password);
    const byNative = await argon2PasswordHasher.hash(password);
    await expect(argon2PasswordHasher.verify(byWasm, password)).resolves.toBe(true);
    await expect(wasm.verify(byNative, password)).resolves.toBe(true);
    await expect(argon2PasswordHasher.verify(byWasm, `${password}x`)).resolves.toBe(false);
    await expect(wasm.verify(byNative, `${password}x`)).resolves.toBe(false);
  });

  it.each(['', 'not a hash', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$', 'pbkdf2_sha256$600000$salt$hash'])(
    'returns false (never throws) for the malformed hash %j',
    async (hash) => {
      await expect(wasm.verify(hash, 'anything')).resolves.toBe(false);
    },
  );

  it('never verifies the empty password (the WASM build refuses it; the password change requires 8 characters)', async () => {
    await expect(wasm.hash('')).rejects.toThrow();
    await expect(wasm.verify(await argon2PasswordHasher.hash(''), '')).resolves.toBe(false);
  });

  it('refuses a stored hash over the ceiling without running it, and logs it', async () => {
    const events: string[] = [];
    const logger = { warn: (event: string) => void events.push(event), error: () => {} };
    const capped = createWasmArgon2PasswordHasher({ ceiling: { memoryCost: 8192 }, logger });
    const hash = await capped.hash('pw');
    expect(hash).toContain('m=19456');
    await expect(capped.verify(hash, 'pw')).resolves.toBe(false);
    expect(events).toEqual(['password_hash_over_cost_ceiling']);
  });

  it('takes compiled modules (as workerd hands them over) instead of compiling its own', async () => {
    const require = createRequire(import.meta.url);
    const compile = (name: string) => new WebAssembly.Module(readFileSync(require.resolve(`argon2-wasm-edge/wasm/${name}.wasm`)));
    const given = createWasmArgon2PasswordHasher({ modules: { argon2: compile('argon2'), blake2b: compile('blake2b') } });
    await expect(argon2PasswordHasher.verify(await given.hash('pw'), 'pw')).resolves.toBe(true);
  });
});

describe('createSessauth: the password hasher at start-up', () => {
  const start = (hasher: PasswordHasher, allowWeakPasswordHasher?: boolean) => {
    const lines: Array<{ level: string; event: string; fields: unknown }> = [];
    const at = (level: string) => (event: string, fields?: unknown) => void lines.push({ level, event, fields });
    const users = { findById: async () => null, idOf: () => 'u', securityStamp: () => 's', findByUsername: async () => null };
    const started = createSessauth({
      options: { secretKey: 'x'.repeat(48), issuer: 'https://issuer.test', audience: 'test' },
      store: new MemorySessionStore(),
      users,
      authenticator: createPasswordAuthenticator({ users, hasher }),
      logger: { warn: at('warn'), error: at('error'), info: at('info') },
      ...(allowWeakPasswordHasher === undefined ? {} : { allowWeakPasswordHasher }),
    });
    return { started, lines };
  };

  it.each([
    ['@node-rs/argon2', argon2PasswordHasher],
    ['wasm (argon2-wasm-edge)', wasm],
  ])('says which hasher it uses: %s', async (implementation, hasher) => {
    const { started, lines } = start(hasher);
    await started;
    expect(lines).toContainEqual({
      level: 'info',
      event: 'password_hasher',
      fields: { algorithm: 'argon2id', implementation, memoryCost: 19456, timeCost: 2, parallelism: 1 },
    });
  });

  it.each([
    ['native, 1 pass of 19 MiB', createArgon2PasswordHasher({ hashOptions: { memoryCost: 19456, timeCost: 1 } })],
    ['wasm, 2 passes of 8 MiB', createWasmArgon2PasswordHasher({ hashOptions: { memoryCost: 8192 } })],
    ['native argon2i', createArgon2PasswordHasher({ hashOptions: { algorithm: 1 as never } })],
  ])('refuses a hasher below OWASP minimum (%s) unless allowed, then warns', async (_, hasher) => {
    await expect(start(hasher).started).rejects.toThrow(IntegrationError);
    const allowed = start(hasher, true);
    await allowed.started;
    expect(allowed.lines.map((line) => `${line.level} ${line.event}`)).toContain('warn password_hasher_below_owasp_minimum');
  });

  it('accepts the other OWASP settings (47 MiB x 1, 12 MiB x 3)', async () => {
    await start(createArgon2PasswordHasher({ hashOptions: { memoryCost: 47104, timeCost: 1 } })).started;
    await start(createWasmArgon2PasswordHasher({ hashOptions: { memoryCost: 12288, timeCost: 3 } })).started;
  });

  it('reports a hasher that does not describe itself as custom', async () => {
    const { started, lines } = start({ hash: async () => 'h', verify: async () => false });
    await started;
    expect(lines).toContainEqual({ level: 'info', event: 'password_hasher', fields: { algorithm: 'custom' } });
  });
});
