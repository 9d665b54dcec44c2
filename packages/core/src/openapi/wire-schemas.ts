import { ERROR_STATUS, type ErrorCode } from '../errors/error-codes.js';
import type { Location } from '../geo/location.js';
import type { RefreshTokenTransport } from '../options/options.js';
import { MAX_SESSION_NAME_LENGTH } from '../sessions/session-name.js';
import type { PublicJwk, PublicJwks } from '../tokens/key-ring.js';
import type {
  CsrfResponseBody,
  ErrorResponseBody,
  PublicActivityEntry,
  PublicSession,
  ReauthenticateRequestBody,
  ReauthenticateResponseBody,
  RenameSessionRequestBody,
  TokenResponseBody,
} from '../http/wire-types.js';
import { DATE_TIME, NULLABLE_STRING, objectSchema, ref, type JsonSchema } from './json-schema.js';

// The bodies of the endpoints as JSON Schema, each pinned by `objectSchema` to the wire
// type the core builds it from: a field added there does not compile until described here.

/** Every code of the contract, in the order of the core's table. */
const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The body the built-in password authenticator reads (a host's own authenticator may read others). */
interface PasswordLoginBody {
  username: string;
  password: string;
  remember?: boolean;
}

/** The refresh body: the token in `body`/`both` transport, `{}` with the cookie. */
interface RefreshRequestBody {
  refresh_token?: string | null;
}

/** An error answer limited to `codes` (the ones an operation can give at one status). */
export function errorBodySchema(codes: readonly ErrorCode[]): JsonSchema {
  return objectSchema<ErrorResponseBody>({
    error_code: { type: 'string', enum: codes },
    message: { type: 'string', description: 'A fixed text per code; never request data. JWT Ninja sends `error_code` alone.' },
  });
}

/** The token pair: the refresh token is in the body in `body` and `both` transport, never in `cookie`. */
function tokenResponseSchema(transport: RefreshTokenTransport): JsonSchema {
  const schema = objectSchema<TokenResponseBody>(
    {
      access_token: { type: 'string', description: 'The access JWT (`typ` at+jwt), sent as `Authorization: Bearer <token>`.' },
      refresh_token: { type: 'string', description: 'The refresh JWT (`typ` rt+jwt).' },
      token_type: {
        type: 'string',
        const: 'DPoP',
        description:
          'Only for a session bound to a DPoP key (JWT_DPOP, RFC 9449 s5): send the access token as `Authorization: DPoP <token>` with a proof.',
      },
    },
    { optional: ['token_type'] },
  );
  if (transport !== 'cookie') return schema;
  const { refresh_token: _inCookie, ...properties } = schema.properties ?? {};
  return { ...schema, properties, required: ['access_token'] };
}

/** The session row, with `last_ip_address` / `last_browser` only when the activity history is on (the seed's row otherwise). */
function publicSessionSchema(activity: boolean): JsonSchema {
  const schema = objectSchema<PublicSession>(
    {
      id: { type: 'string' },
      created_at: DATE_TIME,
      last_activity_at: DATE_TIME,
      ip_address: { ...NULLABLE_STRING, description: 'Null when JWT_PERSIST_CLIENT_IP is off.' },
      user_agent: NULLABLE_STRING,
      browser: { ...NULLABLE_STRING, description: '"<browser> on <OS>" without versions, or null.' },
      location: { anyOf: [ref('Location'), { type: 'null' }] },
      is_current: { type: 'boolean', description: 'True on the row of the session making the request.' },
      name: { ...NULLABLE_STRING, description: 'The device name given with PATCH; null until named.' },
      expires_at: { type: ['string', 'null'], format: 'date-time', description: 'The absolute end; null when sessions never age out.' },
      last_ip_address: {
        ...NULLABLE_STRING,
        description: 'The address of the last client recorded in the activity history; `ip_address` stays the login one.',
      },
      last_browser: {
        ...NULLABLE_STRING,
        description: 'The browser of the last client recorded in the activity history; `browser` stays the login one.',
      },
    },
    { description: "One of the caller's active sessions.", ...(activity ? {} : { optional: ['last_ip_address', 'last_browser'] }) },
  );
  if (activity) return schema;
  const { last_ip_address: _ip, last_browser: _browser, ...properties } = schema.properties ?? {};
  return { ...schema, properties };
}

export function componentSchemas(transport: RefreshTokenTransport, activity = false): Record<string, JsonSchema> {
  return {
    CsrfResponse: objectSchema<CsrfResponseBody>({
      csrf_token: { type: 'string', description: 'The masked CSRF token (64 characters) to send back in `X-CSRFToken`.' },
    }),
    TokenResponse: tokenResponseSchema(transport),
    ErrorResponse: errorBodySchema(ERROR_CODES),
    Location: objectSchema<Location>(
      {
        city: { type: 'string' },
        region: { type: 'string' },
        country: { type: 'string' },
        country_code: { type: 'string', description: 'Two-letter code.' },
        latitude: { type: 'number' },
        longitude: { type: 'number' },
      },
      { optional: ['city', 'region', 'country', 'country_code', 'latitude', 'longitude'] },
    ),
    PublicSession: publicSessionSchema(activity),
    SessionList: { type: 'array', items: ref('PublicSession'), description: 'Newest first.' },
    ...(activity ? activitySchemas() : {}),
    PasswordLoginRequest: objectSchema<PasswordLoginBody>(
      {
        username: { type: 'string' },
        password: { type: 'string' },
        remember: {
          type: 'boolean',
          description: '`false`: a short session (JWT_SHORT_SESSION_EXPIRE_SECONDS) and a browser-session refresh cookie.',
        },
      },
      {
        optional: ['remember'],
        // A host's authenticator reads the parsed body as it likes.
        additionalProperties: true,
        description: "The body of the built-in password authenticator; a host's own authenticator may take other fields.",
      },
    ),
    RefreshRequest: objectSchema<RefreshRequestBody>(
      { refresh_token: { type: ['string', 'null'], description: 'Absent, null or "": the cookie in `both` transport, else 401 invalid_token.' } },
      { optional: ['refresh_token'], additionalProperties: true },
    ),
    RenameSessionRequest: objectSchema<RenameSessionRequestBody>({
      name: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_SESSION_NAME_LENGTH,
        description: 'Trimmed; no control, line-separator or bidi characters.',
      },
    }),
    ReauthenticateRequest: objectSchema<ReauthenticateRequestBody>(
      { password: { type: 'string', description: "The caller's current password." } },
      { additionalProperties: true },
    ),
    ReauthenticateResponse: objectSchema<ReauthenticateResponseBody>(
      {
        access_token: { type: 'string', description: 'Carries `auth_time` (RFC 9068); the refresh token is unchanged.' },
        token_type: { type: 'string', const: 'DPoP', description: 'Only for a session bound to a DPoP key (JWT_DPOP, RFC 9449).' },
      },
      { description: 'A fresh access token for the same session.', optional: ['token_type'] },
    ),
    Jwks: objectSchema<PublicJwks>({ keys: { type: 'array', items: ref('Jwk') } }),
    Jwk: objectSchema<PublicJwk>(
      {
        kty: { type: 'string', enum: ['RSA', 'EC', 'OKP'] },
        kid: { type: 'string' },
        alg: { type: 'string' },
        use: { const: 'sig' },
        n: { type: 'string' },
        e: { type: 'string' },
        crv: { type: 'string' },
        x: { type: 'string' },
        y: { type: 'string' },
      },
      { optional: ['n', 'e', 'crv', 'x', 'y'] },
    ),
  };
}

/** The activity history's bodies (JWT_SESSION_ACTIVITY only). */
function activitySchemas(): Record<string, JsonSchema> {
  return {
    ActivityEntry: objectSchema<PublicActivityEntry>(
      {
        kind: { type: 'string', enum: ['created', 'refreshed', 'stepped_up', 'renamed', 'revoked', 'reuse_detected', 'risk_signal'] },
        at: DATE_TIME,
        ip_address: { ...NULLABLE_STRING, description: 'The client address; null when unknown, unchanged since the last entry, or not persisted.' },
        browser: { ...NULLABLE_STRING, description: 'The client browser; null when unknown or unchanged since the last entry.' },
        location: { anyOf: [ref('Location'), { type: 'null' }] },
        detail: {
          ...NULLABLE_STRING,
          description: 'revoked: the reason; renamed: the new name; stepped_up: the methods; risk_signal: the signal; null otherwise.',
        },
      },
      { description: 'One entry of a session activity history.' },
    ),
    ActivityList: { type: 'array', items: ref('ActivityEntry'), description: 'Oldest first.' },
  };
}

/**
 * The Shared Signals transmitter's schemas (JWT_SSF_TRANSMITTER): the metadata when it is on,
 * the stream endpoints' when they are served too. Nothing when off: the description of a host
 * without the transmitter stays what it was.
 */
/** The DBSC session config the registration answers (W3C DBSC draft, "JSON session instructions"). */
export function deviceBoundSchemas(): Record<string, JsonSchema> {
  return {
    DeviceBoundSessionConfig: {
      type: 'object',
      description: 'Device Bound Session Credentials session instructions: the session id, where to refresh, the scope and the bound cookie.',
      properties: {
        session_identifier: { type: 'string' },
        refresh_url: { type: 'string' },
        scope: { type: 'object', properties: { include_site: { type: 'boolean' } }, required: ['include_site'] },
        credentials: {
          type: 'array',
          items: {
            type: 'object',
            properties: { type: { type: 'string', const: 'cookie' }, name: { type: 'string' }, attributes: { type: 'string' } },
            required: ['type', 'name', 'attributes'],
          },
        },
      },
      required: ['session_identifier', 'refresh_url', 'scope', 'credentials'],
    },
  };
}

export function ssfSchemas(transmitter: boolean, streamEndpoints: boolean): Record<string, JsonSchema> {
  return {
    ...(transmitter ? ssfMetadataSchemas() : {}),
    ...(streamEndpoints ? ssfStreamSchemas() : {}),
  };
}

function ssfMetadataSchemas(): Record<string, JsonSchema> {
  return {
    SsfConfiguration: {
      type: 'object',
      description: 'OpenID SSF 1.0 Transmitter Configuration Metadata.',
      properties: {
        spec_version: { type: 'string' },
        issuer: { type: 'string', format: 'uri' },
        jwks_uri: { type: 'string', format: 'uri' },
        delivery_methods_supported: { type: 'array', items: { type: 'string' } },
        configuration_endpoint: { type: 'string', format: 'uri' },
        status_endpoint: { type: 'string', format: 'uri' },
        verification_endpoint: { type: 'string', format: 'uri' },
        authorization_schemes: { type: 'array', items: { type: 'object', properties: { spec_urn: { type: 'string' } }, required: ['spec_urn'] } },
      },
      required: [
        'spec_version',
        'issuer',
        'jwks_uri',
        'delivery_methods_supported',
        'configuration_endpoint',
        'status_endpoint',
        'verification_endpoint',
      ],
    },
  };
}

function ssfStreamSchemas(): Record<string, JsonSchema> {
  return {
    SsfStream: {
      type: 'object',
      description: 'An SSF stream configuration (the receiver credential is never shown).',
      properties: {
        stream_id: { type: 'string' },
        iss: { type: 'string' },
        aud: { type: 'string' },
        delivery: {
          type: 'object',
          properties: { method: { type: 'string' }, endpoint_url: { type: 'string', format: 'uri' } },
          required: ['method', 'endpoint_url'],
        },
        events_supported: { type: 'array', items: { type: 'string' } },
        events_requested: { type: 'array', items: { type: 'string' } },
        events_delivered: { type: 'array', items: { type: 'string' } },
        description: { type: 'string' },
      },
      required: ['stream_id', 'iss', 'aud', 'delivery', 'events_supported', 'events_requested', 'events_delivered'],
    },
    SsfStreamOrList: { oneOf: [ref('SsfStream'), { type: 'array', items: ref('SsfStream') }] },
    SsfStreamStatus: {
      type: 'object',
      properties: { stream_id: { type: 'string' }, status: { type: 'string', enum: ['enabled', 'paused', 'disabled'] } },
      required: ['stream_id', 'status'],
    },
    SsfVerificationRequest: {
      type: 'object',
      properties: { stream_id: { type: 'string' }, state: { type: 'string', maxLength: 256 } },
      required: ['stream_id'],
    },
  };
}
