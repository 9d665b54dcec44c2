import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { AUDIENCE, ISSUER, SECRET } from '../config.js';

export interface Identity {
  readonly user: string;
  readonly session: string;
}

/** Verifies a bearer access token as a careful hand-written stateless guard would; null when refused. */
export type TokenVerifier = (authorization: string | undefined) => Promise<Identity | null>;

const PREFIX = 'Bearer ';

/**
 * The stateless limit: jose with a key imported once, HS256, `iss`/`aud`/`exp`
 * checked, the `typ` compared exactly. Nothing else. The key is a node:crypto
 * `KeyObject` (measured: jose's CPU per verify is the same with a `CryptoKey`).
 */
export async function createJoseVerifier(): Promise<TokenVerifier> {
  const key = await importKey();
  return async (authorization) => {
    if (authorization === undefined || !authorization.startsWith(PREFIX)) return null;
    try {
      const { payload, protectedHeader } = await jwtVerify(authorization.slice(PREFIX.length), key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp'],
      });
      const sid = (payload as { sid?: unknown }).sid;
      if (protectedHeader.typ !== 'at+jwt' || typeof payload.sub !== 'string' || typeof sid !== 'string') return null;
      return { user: payload.sub, session: sid };
    } catch {
      return null;
    }
  };
}

/** An access token shaped like sessauth's (same claims and `typ`), for the hand-written guards. */
export async function mintAccessToken(userId: string, sessionId: string, lifetimeSeconds: number): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(userId)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + lifetimeSeconds)
    .setJti(`hand-${iat}`)
    .sign(await importKey());
}

async function importKey(): Promise<KeyObject> {
  return createSecretKey(Buffer.from(SECRET, 'utf8'));
}
