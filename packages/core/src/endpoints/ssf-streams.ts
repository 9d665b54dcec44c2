import type { BearerEndpoint, PublicEndpoint } from './endpoint.js';
import type { Engine } from './engine.js';
import type { AuthContext } from '../sessions/authenticate.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { assertJsonContentType, readJsonObject } from '../http/read-json-body.js';
import { emptyResponse, jsonResponse } from '../http/response.js';
import type { SessauthRequest, SessauthResponse } from '../http/sessauth-request.js';
import type { SsfReceiver } from '../options/ssf-receiver.js';
import { CAEP_EVENT_TYPES, PUSH_DELIVERY_METHOD } from '../ssf/caep-events.js';

/*
 * The Shared Signals Framework 1.0 transmitter endpoints (docs/shared-signals.md). Served only
 * with JWT_SSF_TRANSMITTER on: the metadata to anyone (receivers discover it), the stream
 * endpoints to an admin of the admin listing (`admin.isAdmin`, Bearer token), as no SSF
 * receiver of ours holds a token of its own. Streams are the operator's configuration, so the
 * stream endpoints read; creating, changing or deleting a stream over HTTP is left out.
 */

const transmitterOn = <U>(engine: Engine<U>): boolean => engine.securityEvents !== null;
const streamsServed = <U>(engine: Engine<U>): boolean => engine.securityEvents !== null && engine.admin !== null;

/** GET {prefix}/.well-known/ssf-configuration: the Transmitter Configuration Metadata (SSF 1.0 s7.1). */
export const ssfConfigurationEndpoint = {
  route: 'ssf-configuration',
  method: 'GET',
  path: '/.well-known/ssf-configuration',
  auth: 'none',
  available: transmitterOn,
  handle: ({ engine }) => jsonResponse(200, transmitterMetadata(engine)),
} as const satisfies PublicEndpoint;

/** GET {prefix}/ssf/streams[?stream_id=]: one stream's configuration, or all of them (SSF 1.0 s8.1.1.2). */
export const ssfStreamsEndpoint = {
  route: 'ssf-streams',
  method: 'GET',
  path: '/ssf/streams',
  auth: 'bearer',
  available: streamsServed,
  handle: ({ engine, request, caller }) => readStreams(engine, request, caller),
} as const satisfies BearerEndpoint;

/** GET {prefix}/ssf/status?stream_id=: a stream's status (SSF 1.0 s8.1.2.1); always `enabled`. */
export const ssfStatusEndpoint = {
  route: 'ssf-status',
  method: 'GET',
  path: '/ssf/status',
  auth: 'bearer',
  available: streamsServed,
  handle: ({ engine, request, caller }) => readStatus(engine, request, caller),
} as const satisfies BearerEndpoint;

/** POST {prefix}/ssf/verify `{"stream_id", "state"?}`: queue a verification event (SSF 1.0 s8.1.4.2), 204. */
export const ssfVerifyEndpoint = {
  route: 'ssf-verify',
  method: 'POST',
  path: '/ssf/verify',
  auth: 'bearer',
  available: streamsServed,
  handle: ({ engine, request, caller }) => requestVerification(engine, request, caller),
} as const satisfies BearerEndpoint;

function baseUrl<U>(engine: Engine<U>): string {
  return `${engine.options.ssfIssuer ?? ''}${engine.options.prefix}`;
}

function transmitterMetadata<U>(engine: Engine<U>): Record<string, unknown> {
  const base = baseUrl(engine);
  return {
    spec_version: '1_0',
    issuer: engine.options.ssfIssuer,
    jwks_uri: `${base}/jwks.json`,
    delivery_methods_supported: [PUSH_DELIVERY_METHOD],
    configuration_endpoint: `${base}/ssf/streams`,
    status_endpoint: `${base}/ssf/status`,
    verification_endpoint: `${base}/ssf/verify`,
    // RFC 6750 Bearer: an admin's access token.
    authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6750' }],
  };
}

function assertAdmin<U>(engine: Engine<U>, caller: AuthContext<U>): void {
  if (engine.admin === null || !engine.admin.isAdmin(caller.user)) throw new SessauthError('forbidden');
}

/** The one `stream_id` of the query, undefined when absent; repeated or malformed is 400. */
function streamIdOf(request: SessauthRequest): string | undefined {
  const query = request.query ?? '';
  if (query.length > 2048) throw new SessauthError('invalid_request');
  const values = new URLSearchParams(query).getAll('stream_id');
  if (values.length === 0) return undefined;
  if (values.length > 1 || !/^[A-Za-z0-9_-]{1,64}$/.test(values[0]!)) throw new SessauthError('invalid_request');
  return values[0];
}

function streamOf<U>(engine: Engine<U>, streamId: string): SsfReceiver {
  const stream = engine.options.ssfReceivers.find((candidate) => candidate.streamId === streamId);
  if (stream === undefined) throw new SessauthError('not_found');
  return stream;
}

/** A stream as SSF shows it; the receiver's authorization header (a credential) never is. */
function streamConfiguration<U>(engine: Engine<U>, stream: SsfReceiver): Record<string, unknown> {
  const requested = (stream.events ?? []).map((name) => CAEP_EVENT_TYPES[name]);
  return {
    stream_id: stream.streamId,
    iss: engine.options.ssfIssuer,
    aud: stream.audience,
    delivery: { method: PUSH_DELIVERY_METHOD, endpoint_url: stream.endpointUrl },
    events_supported: Object.values(CAEP_EVENT_TYPES),
    events_requested: requested,
    events_delivered: requested,
    ...(stream.description === undefined ? {} : { description: stream.description }),
  };
}

function readStreams<U>(engine: Engine<U>, request: SessauthRequest, caller: AuthContext<U>): SessauthResponse {
  assertAdmin(engine, caller);
  const streamId = streamIdOf(request);
  if (streamId !== undefined) return jsonResponse(200, streamConfiguration(engine, streamOf(engine, streamId)));
  return jsonResponse(
    200,
    engine.options.ssfReceivers.map((stream) => streamConfiguration(engine, stream)),
  );
}

function readStatus<U>(engine: Engine<U>, request: SessauthRequest, caller: AuthContext<U>): SessauthResponse {
  assertAdmin(engine, caller);
  const streamId = streamIdOf(request);
  if (streamId === undefined) throw new SessauthError('invalid_request');
  return jsonResponse(200, { stream_id: streamOf(engine, streamId).streamId, status: 'enabled' });
}

async function requestVerification<U>(engine: Engine<U>, request: SessauthRequest, caller: AuthContext<U>): Promise<SessauthResponse> {
  assertAdmin(engine, caller);
  assertJsonContentType(request);
  const body = await readJsonObject(request, engine.options.maxBodyBytes);
  const { stream_id: streamId, state } = body;
  if (typeof streamId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(streamId)) throw new SessauthError('invalid_request');
  if (state !== undefined && (typeof state !== 'string' || state.length > 256)) throw new SessauthError('invalid_request');
  if (!(await engine.securityEvents!.verify(streamId, state))) throw new SessauthError('not_found');
  return { ...emptyResponse(), status: 204 };
}
