import { openApiDocument } from '@sessauth/core/openapi';
import { describe, expect, it } from 'vitest';
import { openApiViolations } from '../src/http/openapi/openapi-check.js';
import type { RecordedResponse } from '../src/http/openapi/response-recorder.js';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const JSON_HEADERS = { ...NO_STORE, 'content-type': 'application/json' };

function answer(method: string, path: string, status: number, body: unknown, extra: Partial<RecordedResponse> = {}): RecordedResponse {
  return { method, path, status, headers: JSON_HEADERS, text: body === undefined ? '' : JSON.stringify(body), setCookieNames: [], ...extra };
}

const error = (code: string) => ({ error_code: code, message: 'Fixed text.' });

const session = {
  id: 'abc',
  created_at: '2026-01-31T12:00:00.000Z',
  last_activity_at: '2026-01-31T12:00:00.000Z',
  ip_address: null,
  user_agent: null,
  browser: 'Firefox on Linux',
  location: { country: 'Germany', country_code: 'DE' },
  is_current: true,
  name: null,
  expires_at: '2026-02-14T12:00:00.000Z',
};

describe('openApiViolations (the OpenAPI check of the HTTP suite)', () => {
  const body = openApiDocument();
  const cookie = openApiDocument({ refreshTokenTransport: 'cookie' });

  it('accepts answers that follow the description, host routes left alone', () => {
    expect(
      openApiViolations(body, [
        answer('POST', '/auth/login/', 200, { access_token: 'a', refresh_token: 'r' }),
        answer('POST', '/auth/login', 401, error('invalid_credentials')),
        answer('GET', '/auth/sessions/', 200, [session]),
        answer('PATCH', '/auth/sessions/abc/', 200, { ...session, name: 'Work laptop' }),
        answer('DELETE', '/auth/sessions/abc/', 404, error('session_not_found')),
        answer('DELETE', '/auth/sessions/abc/', 401, error('session_not_found')),
        answer('DELETE', '/auth/sessions/abc/', 200, undefined, { headers: NO_STORE }),
        answer('POST', '/auth/refresh/', 429, error('rate_limited'), { headers: { ...JSON_HEADERS, 'retry-after': '30' } }),
        answer('GET', '/auth/login/', 405, error('method_not_allowed'), { headers: { ...JSON_HEADERS, allow: 'POST' } }),
        answer('GET', '/auth/nothing/', 404, error('not_found')),
        answer('GET', '/me', 418, 'host route'),
      ]),
    ).toEqual([]);
    expect(openApiViolations(cookie, [answer('POST', '/auth/login/', 200, { access_token: 'a' }, { setCookieNames: ['refresh_token'] })])).toEqual(
      [],
    );
  });

  it('names each departure: code, status, body, content type, header and cookie', () => {
    const violations = openApiViolations(body, [
      answer('DELETE', '/auth/sessions/abc/', 401, error('token_reuse_detected')),
      answer('POST', '/auth/logout/', 409, error('invalid_request')),
      answer('GET', '/auth/sessions/', 200, [{ ...session, name: undefined, extra: 1 }]),
      answer('GET', '/auth/sessions/', 200, [{ ...session, created_at: 'yesterday' }]),
      answer('POST', '/auth/login/', 200, { access_token: 'a' }, { setCookieNames: ['refresh_token'] }),
      answer('POST', '/auth/login/', 200, { access_token: 'a', refresh_token: 'r' }, { headers: { ...JSON_HEADERS, 'content-type': 'text/html' } }),
      answer('POST', '/auth/refresh/', 429, error('rate_limited')),
      answer('GET', '/auth/login/', 405, error('method_not_allowed')),
      answer('GET', '/auth/nothing/', 200, {}),
      answer('POST', '/auth/logout/', 200, { ok: true }, { headers: { ...JSON_HEADERS, 'cache-control': 'public' } }),
    ]);
    expect(violations).toEqual([
      expect.stringMatching(/^DELETE \/auth\/sessions\/abc\/ -> 401: \$\.error_code: "token_reuse_detected" is not one of/),
      'POST /auth/logout/ -> 409: status 409 is not declared for logout',
      'GET /auth/sessions/ -> 200: $[0]: missing name',
      'GET /auth/sessions/ -> 200: $[0]: undeclared property extra',
      'GET /auth/sessions/ -> 200: $[0].created_at: "yesterday" is not a date-time',
      'POST /auth/login/ -> 200: $: missing refresh_token',
      'POST /auth/login/ -> 200: sets cookie refresh_token, not declared (declared: none)',
      'POST /auth/login/ -> 200: content type text/html is not one of application/json',
      'POST /auth/refresh/ -> 429: header Retry-After is missing',
      'GET /auth/login/ -> 405: header Allow is missing',
      'GET /auth/nothing/ -> 200: no path describes it (only 404 not_found is)',
      'POST /auth/logout/ -> 200: a body where none is declared',
      'POST /auth/logout/ -> 200: header Cache-Control is public, not no-store',
    ]);
    // In cookie transport the refresh token must not be in the body.
    expect(
      openApiViolations(cookie, [
        answer('POST', '/auth/refresh/', 200, { access_token: 'a', refresh_token: 'r' }, { setCookieNames: ['refresh_token'] }),
      ]),
    ).toEqual(['POST /auth/refresh/ -> 200: $: undeclared property refresh_token']);
  });
});
