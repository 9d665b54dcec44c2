const TOKEN = /^(?:[A-Za-z0-9]{32}|[A-Za-z0-9]{64})$/;

/**
 * The `X-CSRFToken` value for login and refresh. Fresh from the cookie when the
 * page can read it (it is the truth: a login in another tab rotates it), else the
 * masked token the server handed out last, else a new one from `GET /auth/csrf/`.
 */
export class CsrfSource {
  private cached: string | null = null;

  constructor(
    private readonly readCookie: () => string | null,
    private readonly fetchToken: () => Promise<string>,
  ) {}

  async token(): Promise<string> {
    return this.readCookie() ?? this.cached ?? this.renew();
  }

  /** After a `403 csrf_failed` (a refused request changes nothing, so one retry is safe). */
  async renew(): Promise<string> {
    this.cached = await this.fetchToken();
    return this.cached;
  }

  /** Login rotates the secret and returns its new mask. */
  remember(token: unknown): void {
    if (typeof token === 'string' && TOKEN.test(token)) this.cached = token;
  }
}

/**
 * Reads the CSRF cookie of this document; only used when the API has the page's
 * origin (another origin's cookie is not ours to read, and a same-named cookie of
 * the page would be the wrong one).
 */
export function documentCookieReader(name: string): () => string | null {
  return () => {
    if (typeof document === 'undefined') return null;
    for (const part of document.cookie.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) {
        const value = part.slice(eq + 1).trim();
        return TOKEN.test(value) ? value : null;
      }
    }
    return null;
  };
}
