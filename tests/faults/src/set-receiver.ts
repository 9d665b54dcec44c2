import { createPublicKey, verify as verifySignature, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/*
 * A Security Event Token receiver written from the specifications, not from sessauth's code:
 * RFC 8935 (push delivery: POST application/secevent+jwt, 202 Accepted, 400 with
 * {"err","description"}), RFC 8417 (SET claims, `typ: secevent+jwt`), RFC 7515/7518 (ES256
 * JWS, checked with node:crypto against the JWK set fetched over HTTP from the transmitter's
 * SSF metadata), RFC 9493 (subject identifiers), OpenID SSF 1.0 (`sub_id`, one event per SET,
 * the verification event) and CAEP 1.0 (session-revoked, credential-change).
 */

export const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
export const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
export const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

/** One SET the receiver accepted (each jti once). */
export interface ReceivedSet {
  readonly jti: string;
  readonly raw: string;
  readonly claims: Record<string, unknown>;
  readonly eventType: string;
  readonly event: Record<string, unknown>;
  readonly subject: Record<string, unknown>;
}

export interface SetReceiverOptions {
  readonly port: number;
  /** Where the transmitter's SSF metadata is (`/.well-known/ssf-configuration`). */
  readonly metadataUrl: string;
  readonly issuer: string;
  readonly audience: string;
  readonly authorization: string;
  /**
   * Answers forced on deliveries before verification, by delivery number (1-based, counting
   * every POST): e.g. `{1: 503, 2: 400}` answers the first with 503 and the second with 400
   * `invalid_key`, which a transmitter must retry.
   */
  readonly forced?: Readonly<Record<number, 503 | 400>>;
}

export interface SetReceiver {
  readonly url: string;
  /** Accepted SETs, one per jti, in arrival order. */
  readonly accepted: ReceivedSet[];
  /** How many deliveries (POSTs) each jti had, forced failures included. */
  readonly deliveries: Map<string, number>;
  /** Every rule a delivery broke (empty when the transmitter conforms). */
  readonly violations: string[];
  close(): Promise<void>;
}

const SUBJECT_FORMATS = new Set(['iss_sub', 'opaque', 'complex', 'email', 'phone_number', 'account', 'did', 'uri', 'aliases']);
const INITIATING_ENTITIES = new Set(['admin', 'user', 'policy', 'system']);
const CREDENTIAL_TYPES = new Set([
  'password',
  'pin',
  'x509',
  'fido2-platform',
  'fido2-roaming',
  'fido-u2f',
  'verifiable-credential',
  'phone-voice',
  'phone-sms',
  'app',
]);
const CHANGE_TYPES = new Set(['create', 'revoke', 'update', 'delete']);
const B64URL = /^[A-Za-z0-9_-]+$/;

class Refused extends Error {
  constructor(
    readonly err: string,
    description: string,
  ) {
    super(description);
  }
}

export async function startSetReceiver(options: SetReceiverOptions): Promise<SetReceiver> {
  const accepted: ReceivedSet[] = [];
  const byJti = new Map<string, string>();
  const deliveries = new Map<string, number>();
  const violations: string[] = [];
  let posts = 0;
  let keys: Map<string, KeyObject> | null = null;

  async function keyFor(kid: string): Promise<KeyObject> {
    // RFC 7517 set, refetched on an unknown kid (a rotation).
    if (keys === null || !keys.has(kid)) {
      const metadata = (await (await fetch(options.metadataUrl)).json()) as { jwks_uri?: unknown; issuer?: unknown };
      if (metadata.issuer !== options.issuer) throw new Refused('invalid_issuer', 'metadata issuer differs');
      if (typeof metadata.jwks_uri !== 'string') throw new Refused('invalid_key', 'no jwks_uri');
      const set = (await (await fetch(metadata.jwks_uri)).json()) as { keys: (JsonWebKey & { kid: string; use?: string })[] };
      keys = new Map(
        set.keys.filter((jwk) => jwk.use === undefined || jwk.use === 'sig').map((jwk) => [jwk.kid, createPublicKey({ key: jwk, format: 'jwk' })]),
      );
    }
    const key = keys.get(kid);
    if (key === undefined) throw new Refused('invalid_key', 'unknown kid');
    return key;
  }

  async function check(body: string): Promise<ReceivedSet> {
    const parts = body.split('.');
    if (parts.length !== 3 || !parts.every((part) => B64URL.test(part))) throw new Refused('invalid_request', 'not a compact JWS');
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    // RFC 8417 s2.3: explicit typing.
    if (header.typ !== 'secevent+jwt') throw new Refused('invalid_request', `typ ${String(header.typ)}`);
    if (header.alg !== 'ES256') throw new Refused('invalid_request', `alg ${String(header.alg)}`);
    if (typeof header.kid !== 'string') throw new Refused('invalid_key', 'no kid');
    if (header.crit !== undefined) throw new Refused('invalid_request', 'crit');
    const key = await keyFor(header.kid);
    // RFC 7518 s3.4: ES256 signature is R || S, 64 bytes.
    const ok = verifySignature(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(parts[2]!, 'base64url'),
    );
    if (!ok) throw new Refused('invalid_key', 'bad signature');
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (claims.iss !== options.issuer) throw new Refused('invalid_issuer', 'iss');
    const aud = claims.aud;
    if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))) throw new Refused('invalid_audience', 'aud');
    if (typeof claims.iat !== 'number' || !Number.isInteger(claims.iat) || claims.iat > Date.now() / 1000 + 60)
      throw new Refused('invalid_request', 'iat');
    if (typeof claims.jti !== 'string' || claims.jti.length === 0) throw new Refused('invalid_request', 'jti');
    // RFC 8417 s2.2: a SET is not an access token; `exp` SHOULD NOT be used; SSF: `sub_id`, not `sub`.
    if ('exp' in claims) throw new Refused('invalid_request', 'exp in a SET');
    if ('sub' in claims) throw new Refused('invalid_request', 'sub instead of sub_id');
    const subject = claims.sub_id;
    checkSubject(subject, 'sub_id');
    const events = claims.events;
    if (typeof events !== 'object' || events === null || Array.isArray(events)) throw new Refused('invalid_request', 'events');
    const types = Object.keys(events);
    if (types.length !== 1) throw new Refused('invalid_request', 'one event per SET (SSF)');
    const eventType = types[0]!;
    const event = (events as Record<string, unknown>)[eventType];
    if (typeof event !== 'object' || event === null) throw new Refused('invalid_request', 'event payload');
    checkEvent(eventType, event as Record<string, unknown>, subject as Record<string, unknown>);
    return { jti: claims.jti, raw: body, claims, eventType, event: event as Record<string, unknown>, subject: subject as Record<string, unknown> };
  }

  function checkSubject(subject: unknown, where: string): void {
    if (typeof subject !== 'object' || subject === null) throw new Refused('invalid_request', `${where} is not an object`);
    const s = subject as Record<string, unknown>;
    if (typeof s.format !== 'string' || !SUBJECT_FORMATS.has(s.format)) throw new Refused('invalid_request', `${where}.format`);
    if (s.format === 'iss_sub' && (typeof s.iss !== 'string' || typeof s.sub !== 'string')) throw new Refused('invalid_request', `${where} iss_sub`);
    if (s.format === 'opaque' && typeof s.id !== 'string') throw new Refused('invalid_request', `${where} opaque`);
    if (s.format === 'complex') {
      const members = Object.keys(s).filter((name) => name !== 'format');
      if (members.length === 0) throw new Refused('invalid_request', `${where} complex without members`);
      for (const name of members) checkSubject(s[name], `${where}.${name}`);
    }
  }

  function checkEvent(type: string, event: Record<string, unknown>, subject: Record<string, unknown>): void {
    if (type === VERIFICATION) {
      if (event.state !== undefined && typeof event.state !== 'string') throw new Refused('invalid_request', 'verification state');
      if (subject.format !== 'opaque') throw new Refused('invalid_request', 'verification subject is the stream');
      return;
    }
    // CAEP 1.0 s2: event_timestamp required (NumericDate), initiating_entity and reason_* optional.
    if (typeof event.event_timestamp !== 'number' || !Number.isInteger(event.event_timestamp))
      throw new Refused('invalid_request', 'event_timestamp');
    if (event.initiating_entity !== undefined && !INITIATING_ENTITIES.has(String(event.initiating_entity))) {
      throw new Refused('invalid_request', 'initiating_entity');
    }
    for (const reason of ['reason_admin', 'reason_user']) {
      const value = event[reason];
      if (value === undefined) continue;
      if (typeof value !== 'object' || value === null || !Object.values(value).every((text) => typeof text === 'string')) {
        throw new Refused('invalid_request', reason);
      }
    }
    if (type === SESSION_REVOKED) return;
    if (type === CREDENTIAL_CHANGE) {
      if (!CREDENTIAL_TYPES.has(String(event.credential_type))) throw new Refused('invalid_request', 'credential_type');
      if (!CHANGE_TYPES.has(String(event.change_type))) throw new Refused('invalid_request', 'change_type');
      return;
    }
    throw new Refused('invalid_request', `unexpected event type ${type}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    posts += 1;
    const answer = (status: number, json?: object) => {
      res.writeHead(status, json === undefined ? {} : { 'content-type': 'application/json' });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    if (req.method !== 'POST') return answer(405);
    if (req.headers['content-type'] !== 'application/secevent+jwt') {
      violations.push(`content-type ${req.headers['content-type']}`);
      return answer(400, { err: 'invalid_request', description: 'content type' });
    }
    if (req.headers.authorization !== options.authorization) {
      violations.push('authorization header');
      return answer(401);
    }
    const jti = jtiOf(body);
    if (jti !== null) deliveries.set(jti, (deliveries.get(jti) ?? 0) + 1);
    const forced = options.forced?.[posts];
    if (forced === 503) return answer(503);
    if (forced === 400) return answer(400, { err: 'invalid_key', description: 'key not yet known here (forced by the test)' });
    let set: ReceivedSet;
    try {
      set = await check(body);
    } catch (error) {
      // The transmitter's keys could not be fetched (its server not listening yet, as when a restarted
      // transmitter pushes what a crash left before its HTTP server is up): the receiver's own
      // temporary failure, not an invalid SET, so 503 and the transmitter retries (RFC 8935 s2.3).
      if (error instanceof TypeError && error.message === 'fetch failed') return answer(503);
      const refused = error instanceof Refused ? error : new Refused('invalid_request', String(error));
      violations.push(`${refused.err}: ${refused.message}`);
      return answer(400, { err: refused.err, description: refused.message });
    }
    const earlier = byJti.get(set.jti);
    if (earlier !== undefined) {
      // At-least-once: a redelivery is the same SET; a different SET under a used jti is not.
      if (earlier !== body) violations.push(`jti ${set.jti} reused for a different SET`);
      return answer(202);
    }
    byJti.set(set.jti, body);
    accepted.push(set);
    return answer(202);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      violations.push(`receiver fault: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${options.port}/events`,
    accepted,
    deliveries,
    violations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function jtiOf(body: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8')) as { jti?: unknown };
    return typeof claims.jti === 'string' ? claims.jti : null;
  } catch {
    return null;
  }
}
