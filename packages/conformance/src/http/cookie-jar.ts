/** One `Set-Cookie` line, parsed. Attribute names are lower-case; flags map to ''. */
export interface ParsedSetCookie {
  readonly name: string;
  readonly value: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly raw: string;
}

export function parseSetCookie(line: string): ParsedSetCookie {
  const [pair = '', ...rest] = line.split(';');
  const eq = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const at = part.indexOf('=');
    const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase();
    if (key !== '') attributes.set(key, at === -1 ? '' : part.slice(at + 1).trim());
  }
  return {
    name: (eq === -1 ? '' : pair.slice(0, eq)).trim(),
    value: (eq === -1 ? pair : pair.slice(eq + 1)).trim(),
    attributes,
    raw: line,
  };
}

/** True when the line tells the browser to drop the cookie (Max-Age <= 0 or an Expires in the past). */
export function isClearingCookie(cookie: ParsedSetCookie): boolean {
  const maxAge = cookie.attributes.get('max-age');
  if (maxAge !== undefined) return Number(maxAge) <= 0;
  const expires = cookie.attributes.get('expires');
  return expires !== undefined && Date.parse(expires) <= Date.now();
}

/** RFC 6265 default-path: the directory of the request path. */
function defaultPath(requestPath: string): string {
  const slash = requestPath.lastIndexOf('/');
  return slash <= 0 ? '/' : requestPath.slice(0, slash);
}

/** RFC 6265 path-match, so a cookie with the wrong Path is not sent, as in a browser. */
function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

interface StoredCookie {
  readonly name: string;
  readonly value: string;
  readonly path: string;
}

/**
 * A small browser-like cookie jar (Node's fetch has none). It honours Path and
 * removal; it sends Secure cookies over http too, because the suite runs on
 * http://127.0.0.1 while the contract keeps cookies Secure by default.
 */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  /** Applies the response's `Set-Cookie` lines of a request to `requestPath`. */
  store(setCookies: readonly ParsedSetCookie[], requestPath: string): void {
    for (const cookie of setCookies) {
      const attrPath = cookie.attributes.get('path');
      const path = attrPath?.startsWith('/') ? attrPath : defaultPath(requestPath);
      const key = `${cookie.name}\u0000${path}`;
      if (isClearingCookie(cookie)) this.cookies.delete(key);
      else this.cookies.set(key, { name: cookie.name, value: cookie.value, path });
    }
  }

  /** The `Cookie` header a browser would send to `requestPath`, or undefined. */
  headerFor(requestPath: string): string | undefined {
    const pairs = [...this.cookies.values()]
      .filter((cookie) => pathMatches(cookie.path, requestPath))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`);
    return pairs.length === 0 ? undefined : pairs.join('; ');
  }

  /** The value of a cookie by name (any path). */
  get(name: string): string | undefined {
    for (const cookie of this.cookies.values()) if (cookie.name === name) return cookie.value;
    return undefined;
  }

  set(name: string, value: string, path = '/'): void {
    this.cookies.set(`${name}\u0000${path}`, { name, value, path });
  }

  delete(name: string): void {
    for (const [key, cookie] of this.cookies) if (cookie.name === name) this.cookies.delete(key);
  }
}
