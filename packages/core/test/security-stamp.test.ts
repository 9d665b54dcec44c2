import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStampDigest } from '../src/sessions/security-stamp.js';

const SECRET = 'a-signing-secret-of-more-than-32-bytes!';
const encoder = new TextEncoder();

/** The digest as every earlier version stored it: WebCrypto HMAC-SHA-256, base64url, no padding. */
async function reference(secret: string, stamp: string): Promise<string> {
  const material = await crypto.subtle.digest('SHA-256', encoder.encode(`sessauth/security-stamp\u0000${secret}`));
  const key = await crypto.subtle.importKey('raw', material, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Buffer.from(await crypto.subtle.sign('HMAC', key, encoder.encode(stamp))).toString('base64url');
}

const STAMPS = ['stamp-1', '', 'ünïcödé 🔑 stamp', 'x'.repeat(600), '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA'];

describe('security stamp digest', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the digest sessions already store, computed with node:crypto, again from its cache', async () => {
    const digest = await createStampDigest(SECRET);
    for (const stamp of STAMPS) {
      const expected = await reference(SECRET, stamp);
      expect(await digest(stamp)).toBe(expected);
      expect(await digest(stamp)).toBe(expected);
    }
  });

  it('gives the same digest on a runtime without node:crypto (WebCrypto only)', async () => {
    vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined);
    const digest = await createStampDigest(SECRET);
    expect(process.getBuiltinModule).toHaveBeenCalledWith('node:crypto');
    for (const stamp of STAMPS) expect(await digest(stamp)).toBe(await reference(SECRET, stamp));
  });

  it('never answers a changed stamp with the old digest, and depends on the secret', async () => {
    const digest = await createStampDigest(SECRET);
    const before = await digest('generation-0');
    expect(await digest('generation-1')).not.toBe(before);
    expect(await digest('generation-0')).toBe(before);
    expect(await (await createStampDigest(`${SECRET}-rotated`))('generation-0')).not.toBe(before);
  });

  it('stays correct past its size bound (the oldest entries are computed again)', async () => {
    const digest = await createStampDigest(SECRET);
    const first = await digest('stamp-0');
    for (let i = 1; i <= 10_050; i += 1) await digest(`stamp-${i}`);
    expect(await digest('stamp-0')).toBe(first);
    expect(await digest('stamp-10050')).toBe(await reference(SECRET, 'stamp-10050'));
  });
});
