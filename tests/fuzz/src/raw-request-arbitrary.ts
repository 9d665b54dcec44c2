import fc from 'fast-check';
import type { RawRequestSpec } from './raw-request.js';

type Header = readonly [string, string];
const JSON_TYPE: Header = ['Content-Type', 'application/json'];
const HOST: Header = ['Host', '127.0.0.1'];
const CSRF: readonly Header[] = [
  ['Cookie', 'csrftoken={CSRF_SECRET}'],
  ['X-CSRFToken', '{CSRF_TOKEN}'],
];
const BEARER: Header = ['Authorization', 'Bearer {ACCESS}'];

/** The contract's calls, well-formed: most generated requests start from one of these. */
const templates: ReadonlyArray<Omit<RawRequestSpec, 'framing' | 'delivery' | 'abortAt' | 'version'>> = [
  { method: 'GET', target: '/auth/csrf/', headers: [HOST], body: '' },
  { method: 'POST', target: '/auth/login/', headers: [HOST, JSON_TYPE, ...CSRF], body: '{"username":"alice","password":"alice-password"}' },
  { method: 'POST', target: '/auth/login/', headers: [HOST, JSON_TYPE, ...CSRF], body: '{"username":"alice","password":"wrong"}' },
  { method: 'POST', target: '/auth/refresh/', headers: [HOST, JSON_TYPE, ...CSRF], body: '{"refresh_token":"{REFRESH}"}' },
  {
    method: 'POST',
    target: '/auth/refresh/',
    headers: [HOST, JSON_TYPE, ['Cookie', 'csrftoken={CSRF_SECRET}; refresh_token={REFRESH}'], ['X-CSRFToken', '{CSRF_TOKEN}']],
    body: '{}',
  },
  { method: 'GET', target: '/auth/sessions/', headers: [HOST, BEARER], body: '' },
  { method: 'DELETE', target: '/auth/sessions/{SID}/', headers: [HOST, BEARER], body: '' },
  { method: 'PATCH', target: '/auth/sessions/{SID}/', headers: [HOST, BEARER, JSON_TYPE], body: '{"name":"Work laptop \u00e9 \ud83d\ude00"}' },
  { method: 'GET', target: '/auth/sessions/{SID}/activity/', headers: [HOST, BEARER], body: '' },
  { method: 'POST', target: '/auth/logout/', headers: [HOST, BEARER], body: '' },
  { method: 'POST', target: '/auth/logout/all/', headers: [HOST, BEARER], body: '' },
  { method: 'POST', target: '/auth/logout/others/', headers: [HOST, BEARER], body: '' },
  { method: 'POST', target: '/auth/reauthenticate/', headers: [HOST, BEARER, JSON_TYPE], body: '{"password":"alice-password"}' },
  { method: 'GET', target: '/me', headers: [HOST, BEARER], body: '' },
  { method: 'GET', target: '/admin/sessauth/session/?format=json', headers: [HOST, BEARER], body: '' },
  { method: 'GET', target: '/admin/sessauth/session/?status=revoked&limit=2', headers: [HOST, BEARER], body: '' },
  {
    method: 'POST',
    target: '/admin/sessauth/session/sign-in/',
    headers: [HOST, ['Content-Type', 'application/x-www-form-urlencoded'], ['Cookie', 'csrftoken={CSRF_SECRET}']],
    body: 'username=alice&password=alice-password&csrfmiddlewaretoken={CSRF_TOKEN}',
  },
  {
    method: 'POST',
    target: '/admin/sessauth/session/sign-out/',
    headers: [HOST, ['Cookie', 'csrftoken={CSRF_SECRET}'], ['Content-Type', 'application/x-www-form-urlencoded']],
    body: 'csrfmiddlewaretoken={CSRF_TOKEN}',
  },
];

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO', 'G=T', '') },
);

const paths = fc.constantFrom(
  '/auth',
  '/auth/',
  '/auth/csrf',
  '/auth/login',
  '/auth/refresh',
  '/auth/sessions',
  '/auth/sessions/x',
  '/auth/sessions/{SID}',
  '/auth/sessions/{SID}/activity',
  '/auth/sessions/x/activity/',
  '/auth/logout/all',
  '/auth/logout/others',
  '/auth/reauthenticate',
  '/auth/unknown/',
  '/auth/sessions/all/',
  '/auth/./csrf/',
  '/auth/../auth/login/',
  '/x/../auth/csrf/',
  '/auth/%2e/csrf/',
  '/auth/%2E%2E/auth/refresh/',
  '/auth/sessions/%00/',
  '/auth/sessions/%ZZ/',
  '/auth/sessions/%F0%9F%98%80/',
  '/auth/sessions/%C0%AF/',
  '/auth/%63srf/',
  '//auth/csrf/',
  '/auth//csrf/',
  '/AUTH/csrf/',
  '/authx/csrf/',
  '/',
  '/me',
  '/me/',
  '/admin/sessauth/session/',
  '/admin/sessauth/session/?after=%ZZ',
  '/admin/sessauth/session/sign-in/',
  '*',
  'http://127.0.0.1/auth/csrf/',
  'http://evil.test/auth/login/',
  'HTTP://x/auth/sessions/',
  'https://x:99999/auth/',
  'auth/csrf/',
);

/** A request target: the contract's paths, dot segments, percent-escapes, absolute-form, outside the prefix, junk. */
const target = fc.oneof(
  { weight: 6, arbitrary: paths },
  {
    weight: 1,
    arbitrary: fc
      .tuple(paths, fc.constantFrom('?a=b', '?format=json', '?%ZZ', '?a=b&a=c', '#frag', '?status=active&limit=0'))
      .map(([p, q]) => `${p}${q}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('/auth/sessions/', '/auth/', '/'), fc.nat(6000)).map(([p, n]) => `${p}${'a'.repeat(n)}/`) },
  { weight: 1, arbitrary: fc.webPath().map((p) => `/auth${p}`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => `/auth/${s}`) },
);

const headerName = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      'Host',
      'Content-Type',
      'Cookie',
      'X-CSRFToken',
      'Authorization',
      'Origin',
      'Referer',
      'User-Agent',
      'X-Forwarded-For',
      'X-Forwarded-Proto',
      'Expect',
      'Connection',
      'Content-Length',
      'Transfer-Encoding',
      'Content-Encoding',
      'Accept',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('X Bad', 'Bad:Name', '', ' Host', 'X-\u00e9', 'x-\u0000') },
);

const headerValue = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/vnd.api+json',
    'multipart/form-data; boundary=x',
    'Bearer {ACCESS}',
    'Bearer {REFRESH}',
    'Bearer {ACCESS},',
    'bearer {ACCESS}',
    'Basic YTpi',
    'csrftoken={CSRF_SECRET}',
    'refresh_token={REFRESH}',
    'csrftoken=a; csrftoken=b',
    '{CSRF_TOKEN}',
    'http://127.0.0.1',
    'https://evil.test',
    'null',
    '127.0.0.1, 10.0.0.1',
    'https, http',
    '100-continue',
    'application/x-www-form-urlencoded',
    'username=alice&username=bob',
    '1.2.3.4, 127.0.0.1',
    '::1',
    'https',
    'http',
    'keep-alive',
    'close',
    '0',
    '-1',
    '1e3',
    '99999999999999999999',
    'chunked',
    'gzip',
    'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    '',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.tuple(fc.constantFrom('a', 'Bearer ', '%', ';'), fc.nat(9000)).map(([piece, n]) => piece.repeat(Math.max(1, Math.floor(n / piece.length)))),
);

const body = fc.oneof(
  fc.constantFrom(
    '',
    '{}',
    '[]',
    'null',
    '"x"',
    '{"username":"alice"}',
    '{"username":{"$gt":""},"password":1}',
    '{"refresh_token":null}',
    '{"refresh_token":""}',
    '{"a":',
    '\u00ef\u00bb\u00bf{}',
  ),
  fc.constantFrom('{"refresh_token":"{ACCESS}"}', '{"username":"al\\u0000ice","password":"\\ud800"}', '{"__proto__":{"admin":true}}'),
  fc.nat(20_000).map((n) => `{"username":"${'a'.repeat(n)}","password":"x"}`),
  fc.nat(3000).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

type Mutation = (spec: RawRequestSpec) => RawRequestSpec;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(headerName, headerValue).map(
    ([name, value]): Mutation =>
      (s) => ({ ...s, headers: [...s.headers, [name, value]] }),
  ),
  fc.nat().map(
    (i): Mutation =>
      (s) => ({ ...s, headers: s.headers.filter((_, k) => k !== i % Math.max(1, s.headers.length)) }),
  ),
  fc.nat().map(
    (i): Mutation =>
      (s) =>
        s.headers.length === 0 ? s : { ...s, headers: [...s.headers, s.headers[i % s.headers.length]!] },
  ),
  fc.tuple(fc.nat(), headerValue).map(
    ([i, value]): Mutation =>
      (s) => ({ ...s, headers: s.headers.map((h, k) => (k === i % Math.max(1, s.headers.length) ? [h[0], value] : h)) }),
  ),
  method.map(
    (m): Mutation =>
      (s) => ({ ...s, method: m }),
  ),
  target.map(
    (t): Mutation =>
      (s) => ({ ...s, target: t }),
  ),
  body.map(
    (b): Mutation =>
      (s) => ({ ...s, body: b }),
  ),
  fc.constantFrom('HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/1.1 x', '').map(
    (v): Mutation =>
      (s) => ({ ...s, version: v }),
  ),
  fc.nat(40).map(
    (n): Mutation =>
      (s) => ({ ...s, headers: [...s.headers, ...Array.from({ length: n }, (_, k): Header => [`X-Filler-${k}`, 'y'.repeat(200)])] }),
  ),
);

/**
 * A raw HTTP/1.1 request: a contract call (sometimes a random one), as it is or with up
 * to three mutations, an odd framing now and then, and a delivery that may be cut off.
 */
export const rawRequestSpec: fc.Arbitrary<RawRequestSpec> = fc
  .record({
    base: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...templates) },
      { weight: 1, arbitrary: fc.record({ method, target, headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }), body }) },
    ),
    mutations: fc.oneof({ weight: 2, arbitrary: fc.constant([]) }, { weight: 3, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }),
    framing: fc.oneof(
      { weight: 12, arbitrary: fc.constant('exact' as const) },
      { weight: 1, arbitrary: fc.constantFrom('short' as const, 'long' as const, 'chunked' as const, 'bad-chunked' as const, 'none' as const) },
    ),
    delivery: fc.constantFrom('whole', 'whole', 'whole', 'split', 'abort'),
    abortAt: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ base, mutations, framing, delivery, abortAt }) => {
    let spec: RawRequestSpec = { ...base, version: 'HTTP/1.1', framing, delivery, abortAt };
    for (const mutate of mutations as Mutation[]) spec = mutate(spec);
    return spec;
  });
