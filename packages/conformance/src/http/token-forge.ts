import { SignJWT, base64url, decodeJwt, type JWTPayload } from 'jose';

/** What the suite knows of the app's token settings, to mint tokens the way an attacker with the key could. */
export interface ForgeSettings {
  readonly secretKey: string;
  readonly issuer: string;
  readonly audience: string;
  /** The app's clock, so `iat`/`exp` agree with what the engine believes is now. */
  readonly now: () => Date;
}

/** Claims of a token as the engine minted them (`sub`, `sid`, `jti`, ...). */
export function claimsOf(token: string): JWTPayload & { sid?: unknown } {
  return decodeJwt(token);
}

/**
 * Builds a well-formed claim set for the app; `overrides` replace fields and a
 * value of `undefined` removes the claim (e.g. `{ jti: undefined }`).
 */
export function claimSet(settings: ForgeSettings, overrides: Readonly<Record<string, unknown>>): JWTPayload {
  const iat = Math.floor(settings.now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    iss: settings.issuer,
    aud: settings.audience,
    iat,
    nbf: iat,
    exp: iat + 300,
    jti: base64url.encode(crypto.getRandomValues(new Uint8Array(16))),
    ...overrides,
  };
  for (const [key, value] of Object.entries(claims)) if (value === undefined) delete claims[key];
  return claims as JWTPayload;
}

/** Signs `claims` with the app's own HS256 secret and the given `typ` header. */
export function forgeToken(settings: ForgeSettings, typ: string, claims: JWTPayload, secretKey = settings.secretKey): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ }).sign(new TextEncoder().encode(secretKey));
}

/** An `alg: none` token (no signature), which must never be accepted. */
export function unsignedToken(typ: string, claims: JWTPayload): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ })}.${encode(claims)}.`;
}

/** The same token with one character of its signature changed. */
export function tamperSignature(token: string): string {
  const dot = token.lastIndexOf('.');
  // The middle of the signature, never its last character (whose low bits may be unused).
  const at = dot + 1 + Math.floor((token.length - dot - 1) / 2);
  const replacement = token.charAt(at) === 'A' ? 'B' : 'A';
  return token.slice(0, at) + replacement + token.slice(at + 1);
}
