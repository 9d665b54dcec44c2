import { ERROR_STATUS, type ErrorCode } from '../errors/error-codes.js';
import { ENDPOINTS } from '../endpoints/endpoints.js';
import { mountedCookiePath } from '../http/mount-path.js';
import type { DpopMode, RefreshTokenTransport } from '../options/options.js';
import { ROUTE_DOCS, type DocSettings, type ErrorCase, type RouteDoc } from './route-docs.js';
import type {
  HeaderObject,
  HttpMethodKey,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItem,
  Reference,
  ResponseObject,
} from './openapi-types.js';
import { deviceBoundSchemas, ssfSchemas, componentSchemas } from './wire-schemas.js';
import { ref } from './json-schema.js';

/** The settings the description depends on; a `ResolvedOptions` (`auth.options`) fits. */
export interface OpenApiSettings {
  /** @default '/auth' */
  readonly prefix?: string;
  /** @default 'body' */
  readonly refreshTokenTransport?: RefreshTokenTransport;
  /** @default 'refresh_token' */
  readonly refreshCookieName?: string;
  /** @default `${prefix}/refresh/` */
  readonly refreshCookiePath?: string;
  /** @default 'csrftoken' */
  readonly csrfCookieName?: string;
  /**
   * Where the host mounted the adapter (`app.use('/api', sessauthMiddleware(auth))`: `'/api'`):
   * becomes the document's `servers` URL, and the default refresh cookie Path follows it.
   * @default '' (the root: `servers` is `/`)
   */
  readonly mountPath?: string;
  /** JWT_ACCESS_TOKEN_COOKIE: the token answers also set the access-token cookie. @default false */
  readonly accessTokenCookie?: boolean;
  /** @default 'access_token' */
  readonly accessCookieName?: string;
  /** Whether `POST {prefix}/login/` exists (false: an engine without an authenticator). @default true */
  readonly loginRoute?: boolean;
  /** Whether the activity history is on (JWT_SESSION_ACTIVITY): its route and the session list's last-client fields. @default false */
  readonly sessionActivity?: boolean;
  /** JWT_DPOP: on, the `DPoP` proof header, the `DPoP` scheme and `invalid_dpop_proof` are described. @default 'off' */
  readonly dpop?: DpopMode;
  /** Whether the Shared Signals transmitter is on (JWT_SSF_TRANSMITTER): its metadata path. @default false */
  readonly ssfTransmitter?: boolean;
  /** Whether its admin stream endpoints are served (the transmitter on and the admin listing configured). @default false */
  readonly ssfStreamEndpoints?: boolean;
  /** JWT_DEVICE_BOUND_COOKIES (in a cookie transport, on a store that can bind): the DBSC routes and the bound cookie. @default false */
  readonly deviceBoundCookies?: boolean;
}

const header = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });
const NO_STORE_HEADERS = { 'Cache-Control': header('CacheControl'), Pragma: header('Pragma') };
const SET_COOKIE = { 'Set-Cookie': header('SetCookie') };

/**
 * The OpenAPI 3.1 description of the endpoints for one prefix and refresh-token transport
 * (cookie names and path too), built from the router's route table, the wire types and the
 * error table. `openApiDocument(auth.openApiSettings)` describes a running instance exactly.
 */
export function openApiDocument(settings: OpenApiSettings = {}): OpenApiDocument {
  const prefix = settings.prefix ?? '/auth';
  const mount = (settings.mountPath ?? '').replace(/\/$/, '');
  const doc: DocSettings = {
    transport: settings.refreshTokenTransport ?? 'body',
    refreshCookieName: settings.refreshCookieName ?? 'refresh_token',
    refreshCookiePath: mountedCookiePath(settings.refreshCookiePath ?? `${prefix}/refresh/`, prefix, mount),
    csrfCookieName: settings.csrfCookieName ?? 'csrftoken',
    accessCookieName: settings.accessTokenCookie === true ? (settings.accessCookieName ?? 'access_token') : null,
    dpop: settings.dpop ?? 'off',
    deviceBound: settings.deviceBoundCookies === true,
  };
  const paths: Record<string, PathItem> = {};
  const ids = new Set<string>();
  for (const entry of ENDPOINTS) {
    // The password step-up checks a password through the same authenticator: no login, no re-authentication.
    if ((entry.route === 'login' || entry.route === 'reauthenticate') && settings.loginRoute === false) continue;
    if (entry.route === 'session-activity' && settings.sessionActivity !== true) continue;
    // Off by default: a host without the transmitter gets the description it always had.
    if (entry.route === 'ssf-configuration' && settings.ssfTransmitter !== true) continue;
    if ((entry.route === 'ssf-streams' || entry.route === 'ssf-status' || entry.route === 'ssf-verify') && settings.ssfStreamEndpoints !== true)
      continue;
    if ((entry.route === 'device-bound-registration' || entry.route === 'device-bound-refresh') && !doc.deviceBound) continue;
    const method = entry.method.toLowerCase() as HttpMethodKey;
    // One route on two paths (the JWK set) needs two operation ids.
    let id = camelCase(entry.route);
    if (ids.has(id)) id = camelCase(`${entry.route} ${entry.path}`);
    ids.add(id);
    paths[documentedPath(prefix, entry.path)] = {
      ...paths[documentedPath(prefix, entry.path)],
      [method]: operation(id, entry.path, ROUTE_DOCS[entry.route], doc),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sessauth',
      version: '1',
      // The description is sessauth's output, under sessauth's license; a host may replace `info`.
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        `Session-backed token authentication, refresh token transport \`${doc.transport}\`. ` +
        'The trailing slash of every path is optional. Another method on a documented path answers 405 ' +
        '`method_not_allowed` with `Allow`; another path under the prefix answers 404 `not_found` ' +
        '(components.responses.MethodNotAllowed and NotFound). Every answer but the JWK set carries ' +
        '`Cache-Control: no-store` and `Pragma: no-cache`.',
    },
    servers: [
      mount === ''
        ? { url: '/', description: 'the origin that serves this description' }
        : { url: mount, description: 'where the host mounted the endpoints' },
    ],
    'x-sessauth': { prefix, refreshTokenTransport: doc.transport },
    paths,
    components: {
      schemas: {
        ...componentSchemas(doc.transport, settings.sessionActivity === true),
        ...ssfSchemas(settings.ssfTransmitter === true, settings.ssfStreamEndpoints === true),
        ...(doc.deviceBound ? deviceBoundSchemas() : {}),
      },
      responses: {
        NotFound: errorResponse(['not_found'], {}),
        MethodNotAllowed: errorResponse(['method_not_allowed'], { Allow: header('Allow') }),
        InternalError: errorResponse(['internal_error'], {}),
      },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (typ at+jwt)' },
        ...(doc.dpop === 'off' ? {} : { dpopAuth: DPOP_SCHEME }),
      },
    },
  };
}

/** The contract's paths end in a slash (optional on the wire); a file name such as `jwks.json` does not. */
export function documentedPath(prefix: string, path: string): string {
  // A file name (jwks.json) and a well-known name (RFC 8615: ssf-configuration) take no slash.
  return path.slice(path.lastIndexOf('/')).includes('.') || path.startsWith('/.well-known/') ? `${prefix}${path}` : `${prefix}${path}/`;
}

/** `logout-all` → `logoutAll`. */
function camelCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

function operation(id: string, path: string, doc: RouteDoc, s: DocSettings): OperationObject {
  const readsProof = s.dpop !== 'off' && (doc.bearer || doc.dpopProof === true);
  const parameters: ParameterObject[] = [
    ...(path.includes('{id}')
      ? [{ name: 'id', in: 'path' as const, required: true, description: 'A session id.', schema: { type: 'string' as const } }]
      : []),
    ...(doc.reads?.(s) ?? []).map((r) => ({ ...r, required: false, schema: { type: 'string' as const } })),
    ...(readsProof ? [dpopParameter(s.dpop)] : []),
  ];
  const body = doc.requestBody?.(s);
  const success = doc.success(s);
  const responses: Record<string, ResponseObject | Reference> = {
    [String(success.status ?? 200)]: {
      description: success.description,
      headers: {
        ...(success.cacheable ? { 'Cache-Control': header('PublicCacheControl') } : NO_STORE_HEADERS),
        ...(success.setCookies.length > 0 ? SET_COOKIE : {}),
      },
      ...(success.body === undefined ? {} : { content: { [success.body.mediaType]: { schema: ref(success.body.schema) } } }),
      ...(success.setCookies.length > 0 ? { 'x-set-cookies': success.setCookies } : {}),
    },
  };
  for (const [status, codes] of byStatus(readsProof ? [...doc.errors(s), 'invalid_dpop_proof'] : doc.errors(s))) {
    const setCookies = status === 401 ? (doc.errorSetCookies?.(s) ?? []) : [];
    responses[String(status)] = errorResponse(
      codes,
      {
        ...(status === 429 ? { 'Retry-After': header('RetryAfter') } : {}),
        ...(setCookies.length > 0 ? SET_COOKIE : {}),
      },
      setCookies,
    );
  }
  responses['500'] = { $ref: '#/components/responses/InternalError' };
  return {
    operationId: id,
    summary: doc.summary,
    description: doc.description,
    // A public operation says so (`security: []`), rather than leaving it to a default.
    security: doc.bearer ? [{ bearerAuth: [] }, ...(s.dpop === 'off' ? [] : [{ dpopAuth: [] }])] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body === undefined ? {} : { requestBody: { required: body.required, content: { 'application/json': { schema: ref(body.schema) } } } }),
    responses,
  };
}

function byStatus(cases: readonly ErrorCase[]): Map<number, ErrorCode[]> {
  const grouped = new Map<number, ErrorCode[]>();
  for (const item of cases) {
    const [code, status] = typeof item === 'string' ? [item, ERROR_STATUS[item]] : item;
    const codes = grouped.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    grouped.set(status, codes);
  }
  return new Map([...grouped].sort(([a], [b]) => a - b));
}

function errorResponse(codes: readonly ErrorCode[], headers: Record<string, Reference>, setCookies: readonly string[] = []): ResponseObject {
  return {
    description: codes.map((code) => `\`${code}\``).join(', '),
    headers: { ...NO_STORE_HEADERS, ...headers },
    // Every error body is an ErrorResponse; this answer narrows its code to the ones it can carry.
    content: { 'application/json': { schema: { allOf: [ref('ErrorResponse'), { properties: { error_code: { enum: codes } } }] } } },
    ...(setCookies.length > 0 ? { 'x-set-cookies': setCookies } : {}),
  };
}

// RFC 9449 s7.1: `Authorization: DPoP <access token>` with a proof (the scheme of a bound session).
const DPOP_SCHEME = {
  type: 'http',
  scheme: 'DPoP',
  bearerFormat: 'JWT (typ at+jwt) bound to a key by cnf.jkt; each request also carries a DPoP proof (RFC 9449)',
} as const;

function dpopParameter(mode: DpopMode): ParameterObject {
  return {
    name: 'DPoP',
    in: 'header',
    required: false,
    description:
      'A DPoP proof (RFC 9449 s4): a JWS of `typ` dpop+jwt signed with ES256, EdDSA, RS256 or PS256 by the key in its `jwk` header, ' +
      'claiming `jti`, `htm`, `htu` (this URI, no query), `iat` (within 60 seconds) and, with an access token, `ath`. ' +
      'At login it binds the session to the key (answer `token_type: "DPoP"`); a bound session needs one by that key on every refresh and guarded request. ' +
      'A bad one: 401 invalid_dpop_proof with `WWW-Authenticate: DPoP error="invalid_dpop_proof"`.' +
      (mode === 'required' ? ' JWT_DPOP=required: every login, refresh and guarded request needs one.' : ''),
    schema: { type: 'string' },
  };
}

const HEADERS: Record<string, HeaderObject> = {
  CacheControl: { description: 'Always `no-store`.', schema: { type: 'string', const: 'no-store' } },
  PublicCacheControl: { description: 'The JWK set is public and cacheable briefly.', schema: { type: 'string' } },
  Pragma: { description: 'Always `no-cache`.', schema: { type: 'string', const: 'no-cache' } },
  RetryAfter: { description: 'Seconds until the rate-limit window ends.', schema: { type: 'string' } },
  Allow: { description: 'The methods of the path.', schema: { type: 'string' } },
  SetCookie: { description: 'The cookies named in `x-set-cookies` of the answer.', schema: { type: 'string' } },
};
