import { type ResolveContext, type SettingKind, show } from './setting-kinds.js';
import { CAEP_EVENT_NAMES, type CaepEventName, type SsfReceiver } from './ssf-receiver.js';

const STREAM_ID = /^[A-Za-z0-9_-]{1,64}$/;
const KEYS: ReadonlySet<string> = new Set(['streamId', 'endpointUrl', 'audience', 'authorizationHeader', 'events', 'description']);

/** `JWT_SSF_RECEIVERS`: a JSON array of receivers in the environment, the array itself in code. */
export function ssfReceivers(): SettingKind<readonly SsfReceiver[]> {
  return {
    env: 'string',
    shownDefault: 'none',
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return [];
      let parsed: unknown = value;
      if (typeof value === 'string') {
        try {
          parsed = JSON.parse(value);
        } catch {
          context.fail('must be a JSON array of receivers');
        }
      }
      if (!Array.isArray(parsed)) context.fail('must be an array of receivers');
      const receivers = parsed.map((item: unknown, index) => checkReceiver(item, index + 1, context));
      const ids = new Set(receivers.map((receiver) => receiver.streamId));
      if (ids.size !== receivers.length) context.fail('has two receivers with the same streamId');
      return Object.freeze(receivers);
    },
  };
}

function checkReceiver(item: unknown, entry: number, context: ResolveContext): SsfReceiver {
  const at = `entry ${entry}:`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) context.fail(`${at} must be an object`);
  const record = item as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!KEYS.has(key)) context.fail(`${at} unknown key ${JSON.stringify(key)}`);
  const { streamId, endpointUrl, audience, authorizationHeader, events, description } = record;
  if (typeof streamId !== 'string' || !STREAM_ID.test(streamId)) context.fail(`${at} streamId must be 1-64 of A-Z a-z 0-9 _ -, ${show(streamId)}`);
  if (typeof endpointUrl !== 'string' || !isPushUrl(endpointUrl)) {
    context.fail(`${at} endpointUrl must be an https: URL (http: only to a loopback address)`);
  }
  if (typeof audience !== 'string' || audience.trim() === '' || audience.length > 2048) context.fail(`${at} audience must be a non-empty string`);
  // Header text only: a line break would smuggle a header into the push.
  if (authorizationHeader !== undefined && (typeof authorizationHeader !== 'string' || !/^[\t\x20-\x7e]{1,4096}$/.test(authorizationHeader))) {
    context.fail(`${at} authorizationHeader must be printable ASCII`);
  }
  if (
    events !== undefined &&
    (!Array.isArray(events) || events.length === 0 || !events.every((name) => (CAEP_EVENT_NAMES as readonly unknown[]).includes(name)))
  ) {
    context.fail(`${at} events must be a non-empty list of ${CAEP_EVENT_NAMES.join(', ')}`);
  }
  if (description !== undefined && (typeof description !== 'string' || description.length > 256)) context.fail(`${at} description must be a string`);
  return Object.freeze({
    streamId,
    endpointUrl,
    audience,
    ...(authorizationHeader === undefined ? {} : { authorizationHeader: authorizationHeader as string }),
    events: Object.freeze([...((events as CaepEventName[] | undefined) ?? CAEP_EVENT_NAMES)]),
    ...(description === undefined ? {} : { description: description as string }),
  });
}

function isPushUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost');
}

/** `JWT_SSF_ISSUER`: an https URL (http only on loopback), without query or fragment. */
export function ssfIssuerUrl(): SettingKind<string | undefined> {
  return {
    env: 'string',
    shownDefault: 'none',
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || !isPushUrl(value) || value.includes('?')) {
        context.fail('must be an https: URL (http: only on a loopback address) without query or fragment');
      }
      return value.replace(/\/+$/, '');
    },
  };
}
