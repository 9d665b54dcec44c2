/**
 * The framework-neutral request the core speaks. Adapters fill it from their
 * framework; header names are lower-case and every value of a repeated header is
 * kept, so the core (not each framework) decides what a duplicate means.
 */
export interface SessauthRequest {
  readonly method: string;
  /** The URL path, without query string, not decoded; with `mountPath`, the full path the client sent. */
  readonly path: string;
  /**
   * Where the framework mounted the adapter (Express's `req.baseUrl`, Koa's mount, a Fastify
   * plugin's prefix, a Hono `basePath`); absent or '' at the root. The endpoints are served
   * under `mountPath + prefix` and the default refresh cookie Path follows; a mount that
   * already holds the prefix (`app.use('/auth', ...)`, a wildcard) is cut back to the root.
   */
  readonly mountPath?: string;
  /** The raw query string without the leading `?` (absent or '' when none); only the admin listing reads it. */
  readonly query?: string;
  readonly headers: RequestHeaders;
  /** The direct TCP peer (never X-Forwarded-For). */
  readonly peerAddress: string | null;
  /** True when the request reached the app over TLS (or a trusted proxy said so). */
  readonly secure: boolean;
  /**
   * Reads the raw body, at most `maxBytes`; rejects with
   * `SessauthError('payload_too_large')` beyond. Called only after the content-type gate.
   */
  readBody(maxBytes: number): Promise<Uint8Array>;
  /**
   * Aborted when the client goes away before its answer is sent (the Node adapters from the
   * response's `close`, the Fetch adapter from `Request.signal`). Work queued for this request
   * alone, such as a login's password check, is dropped instead of run for nobody. Optional:
   * without it nothing is dropped.
   */
  readonly signal?: AbortSignal;
}

/** Lower-case header name -> every value received, in order. */
export type RequestHeaders = ReadonlyMap<string, readonly string[]>;

/** The framework-neutral response. `body` is JSON, HTML, or nothing. */
export interface SessauthResponse {
  readonly status: number;
  /** Always includes `cache-control: no-store` and `pragma: no-cache` on auth routes. */
  readonly headers: Record<string, string>;
  /** Serialised `Set-Cookie` lines, one per cookie. */
  readonly setCookies: readonly string[];
  /** The bytes to send (already serialised), or null for an empty body. */
  readonly body: string | null;
}
