import type { Engine } from './engine.js';
import { accessCookies, refreshCookie } from '../http/auth-cookies.js';
import { jsonResponse } from '../http/response.js';
import type { SessauthResponse } from '../http/sessauth-request.js';
import type { IssuedTokens } from '../sessions/create-session.js';

/**
 * The 200 of login and refresh, shaped by the transport: `body` puts the refresh
 * token in the JSON, `cookie` only in the HttpOnly cookie, `both` in both.
 */
export function tokenResponse<U>(
  engine: Engine<U>,
  issued: IssuedTokens,
  extra: { setCookies?: string[]; body?: Record<string, string>; headers?: Record<string, string> } = {},
): SessauthResponse {
  const { options } = engine;
  const body: Record<string, string> = { access_token: issued.accessToken, ...extra.body };
  // RFC 9449 s5: a bound session's tokens are DPoP tokens; an unbound answer is unchanged.
  if (issued.dpopJkt !== undefined) body.token_type = 'DPoP';
  const setCookies = [...(extra.setCookies ?? [])];
  if (options.refreshTokenTransport !== 'cookie') body.refresh_token = issued.refreshToken;
  if (options.refreshTokenTransport !== 'body') {
    setCookies.push(refreshCookie(options, issued.refreshToken, issued.session.expiresAt, engine.clock.now(), issued.remember !== false));
  }
  setCookies.push(...accessCookies(options, issued.accessToken, issued.remember !== false));
  return jsonResponse(200, body, { setCookies, ...(extra.headers === undefined ? {} : { headers: extra.headers }) });
}
