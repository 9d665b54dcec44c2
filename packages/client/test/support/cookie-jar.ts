interface StoredCookie {
  readonly name: string;
  readonly value: string;
  readonly path: string;
}

/**
 * The part of a browser's cookie store the client depends on: cookies keyed by
 * name and path, sent to paths under theirs, deleted by `Max-Age=0`. Set before
 * the response reaches the page, as browsers do.
 */
export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let path = '/';
    let maxAge: number | null = null;
    for (const attribute of attributes) {
      const [key = '', val = ''] = attribute.split('=');
      if (key.toLowerCase() === 'path') path = val;
      if (key.toLowerCase() === 'max-age') maxAge = Number(val);
    }
    const key = `${name};${path}`;
    if (maxAge !== null && maxAge <= 0) this.cookies.delete(key);
    else this.cookies.set(key, { name, value, path });
  }

  /** The `Cookie` header for a request to `path`. */
  header(path: string): string {
    return [...this.cookies.values()]
      .filter((c) => path.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  get(name: string): string | null {
    for (const cookie of this.cookies.values()) if (cookie.name === name) return cookie.value;
    return null;
  }

  /** A second browser that starts with a copy of this one's cookies (a stolen cookie). */
  copyInto(other: CookieJar): void {
    for (const [key, cookie] of this.cookies) other.cookies.set(key, cookie);
  }
}
