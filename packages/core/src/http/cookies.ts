/** One cookie to serialise into a `Set-Cookie` line. */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  readonly path: string;
  readonly maxAge?: number;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: 'Strict' | 'Lax' | 'None';
  readonly domain?: string;
}

// RFC 6265: a cookie name is an RFC 2616 token; a value is cookie-octets
// (no controls, whitespace, DQUOTE, comma, semicolon or backslash).
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
// Path and Domain attribute values: printable ASCII without ';'.
const ATTRIBUTE_VALUE = /^[\x20-\x3a\x3c-\x7e]+$/;
const DOMAIN = /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

/**
 * Every cookie of every `Cookie` header, name -> all values in order of arrival.
 * Duplicates are kept so callers can refuse ambiguous requests instead of picking
 * one. Names are trimmed; a value in double quotes is unquoted; percent-encoding
 * is decoded when valid and kept as is otherwise. Pairs without `=` or with an
 * empty name are skipped.
 */
export function parseCookieHeader(values: readonly string[] | undefined): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  for (const header of values ?? []) {
    for (const pair of header.split(';')) {
      const eq = pair.indexOf('=');
      if (eq === -1) continue;
      const name = pair.slice(0, eq).trim();
      if (name === '') continue;
      const value = decodeValue(unquote(pair.slice(eq + 1).trim()));
      const existing = cookies.get(name);
      if (existing === undefined) cookies.set(name, [value]);
      else existing.push(value);
    }
  }
  return cookies;
}

/**
 * One `Set-Cookie` line. `maxAge: 0` clears the cookie (with an `Expires` in 1970
 * for old clients); no `maxAge` makes a session cookie. Throws on a name, value,
 * path or domain that cannot be written safely, or SameSite=None without Secure:
 * those are programmer errors, never client input.
 */
export function serializeCookie(c: SetCookie): string {
  if (!COOKIE_NAME.test(c.name)) throw new Error(`invalid cookie name: ${JSON.stringify(c.name)}`);
  if (!COOKIE_VALUE.test(c.value)) throw new Error(`invalid value for cookie ${c.name}`);
  if (!ATTRIBUTE_VALUE.test(c.path) || !c.path.startsWith('/')) {
    throw new Error(`invalid path for cookie ${c.name}: ${JSON.stringify(c.path)}`);
  }
  const parts = [`${c.name}=${c.value}`, `Path=${c.path}`];
  if (c.domain !== undefined) {
    if (!DOMAIN.test(c.domain)) throw new Error(`invalid domain for cookie ${c.name}`);
    parts.push(`Domain=${c.domain}`);
  }
  if (c.maxAge !== undefined) {
    if (!Number.isSafeInteger(c.maxAge) || c.maxAge < 0) {
      throw new Error(`invalid maxAge for cookie ${c.name}: ${c.maxAge}`);
    }
    parts.push(`Max-Age=${c.maxAge}`);
    if (c.maxAge === 0) parts.push(`Expires=${EPOCH}`);
  }
  if (c.httpOnly) parts.push('HttpOnly');
  if (c.secure) parts.push('Secure');
  else if (c.sameSite === 'None') throw new Error(`cookie ${c.name}: SameSite=None requires Secure`);
  parts.push(`SameSite=${c.sameSite}`);
  return parts.join('; ');
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

// Every `%` starts a two-digit escape. Checked first, because a thrown-and-caught
// URIError per malformed pair made a header of `a=%ZZ;` pairs cost milliseconds.
const WELL_FORMED_ESCAPES = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;

function decodeValue(value: string): string {
  if (!value.includes('%') || !WELL_FORMED_ESCAPES.test(value)) return value;
  try {
    // Escapes that are not valid UTF-8 (`%C3%28`) still throw: rare, and kept raw.
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
