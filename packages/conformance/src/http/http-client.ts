import type { CsrfResponseBody, ErrorResponseBody, TokenResponseBody } from '@sessauth/core';
import { CookieJar, parseSetCookie, type ParsedSetCookie } from './cookie-jar.js';
import { cookieNames, recordResponse } from './openapi/response-recorder.js';

export interface SendOptions {
  /** Gives up (rejects) when it aborts, as a client that hangs up. */
  readonly signal?: AbortSignal;
  /** Serialised as the body; the content type defaults to application/json. */
  readonly json?: unknown;
  /** A raw body (string or bytes). */
  readonly body?: string | Uint8Array;
  /** The Content-Type to send; `null` sends none at all. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as `Authorization: Bearer <token>`. */
  readonly bearer?: string;
  /** Send the jar's cookies (default true). */
  readonly cookies?: boolean;
  /** Send the last `csrf_token` from GET /auth/csrf/ in `X-CSRFToken`. */
  readonly csrf?: boolean;
}

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
  readonly setCookies: readonly ParsedSetCookie[];
  /** `body.error_code` when present. */
  readonly errorCode: string | undefined;
}

/**
 * A field of a JSON object body, or undefined. Name the core's wire body to have the
 * field name checked against it: `field<TokenResponseBody>(body, 'access_token')`.
 */
export function field<Body = Record<string, unknown>>(body: unknown, name: keyof Body & string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One browser-like client of the app under test: real fetch over the socket, a
 * cookie jar, and the last CSRF token. Every token and cookie it sees goes into
 * `secrets`, so the suite can prove none reached a log line.
 */
export class HttpClient {
  readonly jar = new CookieJar();
  csrfToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly secrets: Set<string>,
  ) {}

  get(path: string, options: SendOptions = {}): Promise<HttpResult> {
    return this.send('GET', path, options);
  }

  post(path: string, options: SendOptions = {}): Promise<HttpResult> {
    return this.send('POST', path, options);
  }

  delete(path: string, options: SendOptions = {}): Promise<HttpResult> {
    return this.send('DELETE', path, options);
  }

  /** GET /auth/csrf/ and keep its cookie and token. */
  async fetchCsrf(prefix = '/auth'): Promise<string> {
    const result = await this.get(`${prefix}/csrf/`);
    const token = field<CsrfResponseBody>(result.body, 'csrf_token');
    if (result.status !== 200 || typeof token !== 'string') {
      throw new Error(`GET ${prefix}/csrf/ answered ${result.status} ${result.text}`);
    }
    this.csrfToken = token;
    return token;
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpResult> {
    const headers = new Headers(options.headers);
    const raw = options.json === undefined ? options.body : JSON.stringify(options.json);
    const contentType = options.contentType === undefined && options.json !== undefined ? 'application/json' : options.contentType;
    // fetch labels a string body text/plain by itself; bytes go out with no type.
    const body = raw === undefined ? undefined : typeof raw === 'string' ? new TextEncoder().encode(raw) : new Uint8Array(raw);
    if (typeof contentType === 'string') headers.set('content-type', contentType);
    if (options.bearer !== undefined) headers.set('authorization', `Bearer ${options.bearer}`);
    if (options.csrf === true && this.csrfToken !== undefined) headers.set('x-csrftoken', this.csrfToken);
    const cookie = options.cookies === false ? undefined : this.jar.headerFor(path);
    if (cookie !== undefined && !headers.has('cookie')) headers.set('cookie', cookie);
    const url = new URL(path, this.baseUrl);
    const response = await fetch(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const text = await response.text();
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    const seenHeaders: Record<string, string> = {};
    // Set-Cookie lines are recorded by name below, not joined here.
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') seenHeaders[name] = value;
    });
    recordResponse(url, {
      method,
      status: response.status,
      headers: seenHeaders,
      text,
      setCookieNames: cookieNames(response.headers.getSetCookie()),
    });
    this.jar.store(setCookies, path);
    const parsed = parseJson(text);
    this.remember(parsed, setCookies);
    const errorCode = field<ErrorResponseBody>(parsed, 'error_code');
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: parsed,
      setCookies,
      errorCode: typeof errorCode === 'string' ? errorCode : undefined,
    };
  }

  private remember(body: unknown, setCookies: readonly ParsedSetCookie[]): void {
    const names: ReadonlyArray<keyof TokenResponseBody | keyof CsrfResponseBody> = ['access_token', 'refresh_token', 'csrf_token'];
    for (const name of names) {
      const value = field(body, name);
      if (typeof value === 'string' && value.length >= 8) this.secrets.add(value);
    }
    for (const cookie of setCookies) if (cookie.value.length >= 8) this.secrets.add(cookie.value);
  }
}
