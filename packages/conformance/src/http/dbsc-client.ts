// A browser's side of W3C Device Bound Session Credentials, written from the draft's text
// (w3c/webappsec-dbsc spec.bs of 2026-02-17: "Process session registration", "Send request",
// "Create session", "Cache challenge", "DBSC Proof JWT Syntax" and the header sections), with
// jose and WebCrypto, never with the core's code: what an honest user agent sends, and what an
// attacker who stole the cookies but not the key can try.
import { createHmac } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** A session key pair the user agent made ("Create session key pair"). */
export interface DbscKey {
  readonly alg: 'ES256' | 'RS256';
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export async function makeDbscKey(alg: 'ES256' | 'RS256' = 'ES256'): Promise<DbscKey> {
  const pair = await generateKeyPair(alg, { extractable: false });
  return { alg, privateKey: pair.privateKey as CryptoKey, publicJwk: await exportJWK(pair.publicKey) };
}

/** One entry of `Secure-Session-Registration` (an sf-list of inner lists with parameters). */
export interface RegistrationEntry {
  readonly algorithms: readonly string[];
  readonly path: string;
  readonly challenge: string | null;
  readonly authorization: string | null;
}

/** One `Secure-Session-Challenge` item: the challenge and its `id` parameter. */
export interface ChallengeItem {
  readonly challenge: string;
  readonly id: string | null;
}

/** The JSON session instructions ("JSON Session Instruction Format"), the keys this client uses. */
export interface SessionInstructions {
  readonly session_identifier?: string;
  readonly refresh_url?: string;
  readonly continue?: boolean;
  readonly scope?: { readonly origin?: string; readonly include_site?: boolean };
  readonly credentials?: readonly { readonly type: string; readonly name: string; readonly attributes?: string }[];
}

// --- RFC 9651 structured fields: the few productions DBSC uses -----------------------------

class Cursor {
  index = 0;
  constructor(readonly text: string) {}
  peek(): string {
    return this.text[this.index] ?? '';
  }
  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.index += 1;
  }
  done(): boolean {
    return this.index >= this.text.length;
  }
}

type BareItem = string | { readonly token: string } | boolean | number;

function parseString(cursor: Cursor): string {
  if (cursor.peek() !== '"') throw new Error('sf-string expected');
  cursor.index += 1;
  let out = '';
  while (!cursor.done()) {
    const char = cursor.peek();
    cursor.index += 1;
    if (char === '\\') {
      out += cursor.peek();
      cursor.index += 1;
    } else if (char === '"') {
      return out;
    } else {
      out += char;
    }
  }
  throw new Error('unterminated sf-string');
}

function parseToken(cursor: Cursor): { token: string } {
  const match = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/.exec(cursor.text.slice(cursor.index));
  if (match === null) throw new Error('sf-token expected');
  cursor.index += match[0].length;
  return { token: match[0] };
}

function parseBareItem(cursor: Cursor): BareItem {
  const char = cursor.peek();
  if (char === '"') return parseString(cursor);
  if (char === '?') {
    cursor.index += 2;
    return cursor.text[cursor.index - 1] === '1';
  }
  if (/[-0-9]/.test(char)) {
    const match = /^-?[0-9]+(?:\.[0-9]+)?/.exec(cursor.text.slice(cursor.index))!;
    cursor.index += match[0].length;
    return Number(match[0]);
  }
  return parseToken(cursor);
}

function parseParameters(cursor: Cursor): Map<string, BareItem> {
  const params = new Map<string, BareItem>();
  while (cursor.peek() === ';') {
    cursor.index += 1;
    cursor.skipSpaces();
    const key = /^[a-z*][a-z0-9_\-.*]*/.exec(cursor.text.slice(cursor.index))?.[0];
    if (key === undefined) throw new Error('parameter key expected');
    cursor.index += key.length;
    let value: BareItem = true;
    if (cursor.peek() === '=') {
      cursor.index += 1;
      value = parseBareItem(cursor);
    }
    params.set(key, value);
  }
  return params;
}

type ListMember = { readonly item: BareItem | readonly BareItem[]; readonly params: Map<string, BareItem> };

/** An sf-list (RFC 9651 s4.2.1); every field line of the header joined with ", " first. */
function parseList(field: string): ListMember[] {
  const cursor = new Cursor(field.trim());
  const members: ListMember[] = [];
  while (!cursor.done()) {
    let item: BareItem | BareItem[];
    if (cursor.peek() === '(') {
      cursor.index += 1;
      const inner: BareItem[] = [];
      cursor.skipSpaces();
      while (cursor.peek() !== ')') {
        if (cursor.done()) throw new Error('unterminated inner list');
        inner.push(parseBareItem(cursor));
        parseParameters(cursor);
        cursor.skipSpaces();
      }
      cursor.index += 1;
      item = inner;
    } else {
      item = parseBareItem(cursor);
    }
    members.push({ item, params: parseParameters(cursor) });
    cursor.skipSpaces();
    if (cursor.done()) break;
    if (cursor.peek() !== ',') throw new Error('comma expected');
    cursor.index += 1;
    cursor.skipSpaces();
  }
  return members;
}

const sfString = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const stringParam = (params: Map<string, BareItem>, key: string): string | null => {
  const value = params.get(key);
  return typeof value === 'string' ? value : null;
};

/** "Process session registration": the entries a user agent would act on (inner list, string `path`). */
export function parseRegistration(field: string | null): RegistrationEntry[] {
  if (field === null) return [];
  const entries: RegistrationEntry[] = [];
  for (const { item, params } of parseList(field)) {
    if (!Array.isArray(item)) continue;
    const path = stringParam(params, 'path');
    if (path === null) continue;
    const algorithms = item.filter((alg): alg is { token: string } => typeof alg === 'object').map((alg) => alg.token);
    entries.push({ algorithms, path, challenge: stringParam(params, 'challenge'), authorization: stringParam(params, 'authorization') });
  }
  return entries;
}

/** "Cache challenge": the string items with an `id` parameter. */
export function parseChallenges(field: string | null): ChallengeItem[] {
  if (field === null) return [];
  return parseList(field)
    .filter((member): member is ListMember & { item: string } => typeof member.item === 'string')
    .map(({ item, params }) => ({ challenge: item, id: stringParam(params, 'id') }));
}

// --- DBSC proofs ---------------------------------------------------------------------------

/** "DBSC Proof JWT Syntax": `typ` dbsc+jwt, the key's `alg`, `jwk` at registration only; `jti` the challenge. */
export function signDbscProof(
  key: DbscKey,
  challenge: string,
  options: { readonly registration: boolean; readonly authorization?: string | null; readonly typ?: string } = { registration: false },
): Promise<string> {
  const payload: Record<string, unknown> = { jti: challenge };
  if (options.authorization !== undefined && options.authorization !== null) payload.authorization = options.authorization;
  const header = { alg: key.alg, typ: options.typ ?? 'dbsc+jwt', ...(options.registration ? { jwk: key.publicJwk } : {}) };
  return new SignJWT(payload).setProtectedHeader(header).sign(key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An attacker's `alg: none` proof (the draft allows `none` only for sessions without a key). */
export function unsignedDbscProof(challenge: string, jwk?: JWK): string {
  return `${b64({ alg: 'none', typ: 'dbsc+jwt', ...(jwk === undefined ? {} : { jwk }) })}.${b64({ jti: challenge })}.`;
}

/** An attacker's HS256 proof under a symmetric key it names itself. */
export function hmacDbscProof(challenge: string, registration: boolean): string {
  const secret = Buffer.from('attacker-chosen-secret-of-32-bytes!!');
  const jwk = { kty: 'oct', k: secret.toString('base64url') };
  const signingInput = `${b64({ alg: 'HS256', typ: 'dbsc+jwt', ...(registration ? { jwk } : {}) })}.${b64({ jti: challenge })}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

/** The request headers of "Send request": the proof as an sf-string, the session id as one. */
export function dbscHeaders(input: { readonly sessionId?: string; readonly proof?: string }): Record<string, string> {
  return {
    ...(input.proof === undefined ? {} : { 'secure-session-response': sfString(input.proof) }),
    ...(input.sessionId === undefined ? {} : { 'sec-secure-session-id': sfString(input.sessionId) }),
  };
}
