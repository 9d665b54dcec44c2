import { constantTimeEqual } from '../text/constant-time-equal.js';
import { soleValue } from './request-headers.js';

// Django-compatible CSRF tokens: a 32-character secret lives in the cookie; the
// page gets it masked (32 random characters + the secret shifted by them), so the
// token differs on every response (BREACH) while still matching the cookie.
const CSRF_ALLOWED_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CSRF_SECRET_LENGTH = 32;
const CSRF_TOKEN_LENGTH = 64;
const WELL_FORMED = /^[a-zA-Z0-9]+$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/** A fresh random secret for the CSRF cookie. */
export function newCsrfSecret(): string {
  return randomChars(CSRF_SECRET_LENGTH);
}

/** A 64-character masked token for `secret`; different on every call. */
export function maskCsrfSecret(secret: string): string {
  if (!isWellFormed(secret, CSRF_SECRET_LENGTH)) throw new Error('maskCsrfSecret: malformed secret');
  const mask = randomChars(CSRF_SECRET_LENGTH);
  let cipher = '';
  for (let i = 0; i < CSRF_SECRET_LENGTH; i++) {
    cipher += CSRF_ALLOWED_CHARS[(indexOf(secret, i) + indexOf(mask, i)) % CSRF_ALLOWED_CHARS.length];
  }
  return mask + cipher;
}

/**
 * The secret inside a token: a 64-character token is unmasked; a 32-character one
 * is taken as an unmasked secret (as Django accepts). Null when malformed.
 */
export function unmaskCsrfToken(token: string): string | null {
  if (isWellFormed(token, CSRF_SECRET_LENGTH)) return token;
  if (!isWellFormed(token, CSRF_TOKEN_LENGTH)) return null;
  const size = CSRF_ALLOWED_CHARS.length;
  let secret = '';
  for (let i = 0; i < CSRF_SECRET_LENGTH; i++) {
    const shifted = indexOf(token, CSRF_SECRET_LENGTH + i) - indexOf(token, i);
    secret += CSRF_ALLOWED_CHARS[(shifted + size) % size];
  }
  return secret;
}

/**
 * True when the header token (masked or not) carries the cookie's secret (the
 * cookie may hold a secret or, like old Django, a masked token). Malformed input
 * is false. The secrets are compared in constant time.
 */
export function csrfTokensMatch(headerToken: string, cookieSecret: string): boolean {
  const fromHeader = unmaskCsrfToken(headerToken);
  const fromCookie = unmaskCsrfToken(cookieSecret);
  if (fromHeader === null || fromCookie === null) return false;
  return constantTimeEqual(fromHeader, fromCookie);
}

export interface CsrfCheckInput {
  readonly method: string;
  /** Every `X-CSRFToken` value received. */
  readonly headerTokens: readonly string[] | undefined;
  /** Every value of the CSRF cookie received. */
  readonly cookieValues: readonly string[] | undefined;
  readonly origin: readonly string[] | undefined;
  readonly referer: readonly string[] | undefined;
  /** The `Host` header (with port when not the default). */
  readonly host: string | undefined;
  readonly secure: boolean;
  /** Extra allowed origins, `scheme://host[:port]`. */
  readonly trustedOrigins: readonly string[];
}

/**
 * Django's rules for an unsafe request (safe methods pass): an `Origin`, when sent,
 * must be the request's own origin or a trusted one (`null` fails); an HTTPS
 * request without `Origin` needs an https `Referer` of such an origin; then exactly
 * one cookie and exactly one header token must carry the same secret. A repeated
 * header or cookie fails: the request is ambiguous.
 */
export function checkCsrf(input: CsrfCheckInput): boolean {
  return csrfFailure(input) === null;
}

/** Why a CSRF check failed, for the operator's log (never a token value). */
export type CsrfFailure =
  | { readonly reason: 'origin_refused'; readonly origin: string }
  | { readonly reason: 'referer_refused' | 'no_cookie' | 'no_header' | 'duplicate_cookie' | 'duplicate_header' | 'mismatch' };

/** `checkCsrf`'s rules, saying which one failed; null when the request passes. */
export function csrfFailure(input: CsrfCheckInput): CsrfFailure | null {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return null;
  const allowed = allowedOrigins(input);
  if (input.origin !== undefined && input.origin.length > 0) {
    const origin = single(input.origin);
    const parsed = origin === null || origin === 'null' ? null : parseUrl(origin);
    // An Origin header is a bare origin: no path, query or credentials.
    if (parsed === null || parsed.href !== `${parsed.origin}/` || !allowed.has(parsed.origin)) {
      return { reason: 'origin_refused', origin: origin ?? input.origin.join(', ') };
    }
  } else if (input.secure) {
    const referer = single(input.referer);
    const parsed = referer === null ? null : parseUrl(referer);
    if (parsed === null || parsed.protocol !== 'https:' || !allowed.has(parsed.origin)) return { reason: 'referer_refused' };
  }
  if (input.cookieValues === undefined || input.cookieValues.length === 0) return { reason: 'no_cookie' };
  if (input.cookieValues.length > 1) return { reason: 'duplicate_cookie' };
  if (input.headerTokens === undefined || input.headerTokens.length === 0) return { reason: 'no_header' };
  if (input.headerTokens.length > 1) return { reason: 'duplicate_header' };
  return csrfTokensMatch(input.headerTokens[0]!, input.cookieValues[0]!) ? null : { reason: 'mismatch' };
}

function allowedOrigins(input: CsrfCheckInput): Set<string> {
  const origins = new Set<string>();
  for (const trusted of input.trustedOrigins) {
    const parsed = parseUrl(trusted);
    if (parsed !== null) origins.add(parsed.origin);
  }
  if (input.host !== undefined && HOST.test(input.host)) {
    const own = parseUrl(`${input.secure ? 'https' : 'http'}://${input.host}`);
    if (own !== null) origins.add(own.origin);
  }
  return origins;
}

/** An http(s) URL, or null. */
function parseUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function single(values: readonly string[] | undefined): string | null {
  return soleValue(values) ?? null;
}

function isWellFormed(token: string, length: number): boolean {
  return token.length === length && WELL_FORMED.test(token);
}

function indexOf(text: string, position: number): number {
  return CSRF_ALLOWED_CHARS.indexOf(text.charAt(position));
}

/** Uniformly random characters from the allowed set (rejection sampling: no modulo bias). */
function randomChars(count: number): string {
  const size = CSRF_ALLOWED_CHARS.length;
  const limit = 256 - (256 % size);
  let out = '';
  while (out.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count * 2))) {
      if (byte < limit && out.length < count) out += CSRF_ALLOWED_CHARS[byte % size];
    }
  }
  return out;
}
