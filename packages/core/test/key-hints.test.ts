import { beforeAll, describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import type { SessauthOptions } from '../src/options/options.js';
import { resolveOptions } from '../src/options/resolve-options.js';
import { pemPair, type PemPair } from './helpers/pem-keys.js';

const base = { issuer: 'https://issuer.test', audience: 'aud' };

function messageOf(options: Record<string, unknown>): string {
  try {
    resolveOptions(options as unknown as SessauthOptions);
  } catch (error) {
    if (error instanceof SettingsError) return error.message;
    throw error;
  }
  throw new Error('resolveOptions accepted the options');
}

describe('key errors hint at the fix', () => {
  let rsa: PemPair;
  beforeAll(async () => {
    rsa = await pemPair('rsa2048');
  }, 60_000);
  const rs256 = (secretKey: string, verifyingKey: string = rsa.publicKey) => ({ ...base, algorithm: 'RS256', secretKey, verifyingKey });

  it('an RS256 secret that is not a PEM says a private key is needed and how to make one', () => {
    const message = messageOf(rs256('an-hmac-secret-of-exactly-32-by!'));
    expect(message).toMatch(/^secretKey \/ JWT_SECRET_KEY: must be a PEM private key for RS256/);
    expect(message).toContain('openssl genpkey -algorithm RSA');
    expect(message).toContain('JWT_ALGORITHM=HS256');
    expect(message).not.toContain('an-hmac-secret');
  });

  it('a PKCS#1 "RSA PRIVATE KEY" names the openssl pkcs8 conversion', () => {
    const pkcs1 = rsa.privateKey.replaceAll('PRIVATE KEY', 'RSA PRIVATE KEY');
    expect(messageOf(rs256(pkcs1))).toContain('openssl pkcs8 -topk8 -nocrypt -in key.pem');
  });

  it('an ES256 SEC1 key names the same conversion and an EC key generator when missing', () => {
    expect(messageOf({ ...base, algorithm: 'ES256', secretKey: '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----' })).toContain(
      'openssl pkcs8 -topk8 -nocrypt',
    );
    expect(messageOf({ ...base, algorithm: 'ES256', secretKey: 'plain' })).toContain('ec_paramgen_curve:P-256');
  });

  it('a PEM with literal \\n escapes (an unquoted .env value) says to quote it or use settingsFromEnv', () => {
    const escaped = rsa.privateKey.trim().replaceAll('\n', '\\n');
    const message = messageOf(rs256(escaped));
    expect(message).toMatch(/^secretKey \/ JWT_SECRET_KEY: contains literal "\\n" sequences/);
    expect(message).toContain('double quotes');
    expect(message).toContain('settingsFromEnv');
    expect(messageOf(rs256(rsa.privateKey, rsa.publicKey.trim().replaceAll('\n', '\\n')))).toMatch(
      /^verifyingKey \/ JWT_VERIFYING_KEY: contains literal/,
    );
  });

  it('a verifying key that is a certificate, a PKCS#1 public key or a private key names the openssl command', () => {
    const relabel = (label: string) => rsa.publicKey.replaceAll('PUBLIC KEY', label);
    expect(messageOf(rs256(rsa.privateKey, relabel('CERTIFICATE')))).toContain('openssl x509 -in cert.pem -pubkey -noout');
    expect(messageOf(rs256(rsa.privateKey, relabel('RSA PUBLIC KEY')))).toContain('openssl rsa -RSAPublicKey_in');
    expect(messageOf(rs256(rsa.privateKey, rsa.privateKey))).toContain('openssl pkey -in key.pem -pubout');
  });

  it('a public key given as the secret says which setting takes which half', () => {
    expect(messageOf(rs256(rsa.publicKey))).toContain('JWT_SECRET_KEY holds the private key');
  });
});
