import type { Context } from 'koa';
import type { SessauthResponse } from '@sessauth/core/adapter';

/**
 * Sends a core response on Koa's context: an endpoint's, a guard's error, or a host route's
 * `createSessionFor(...).response()` (after sign-up, an OAuth callback, a magic link).
 */
export function sendSessauthResponse(ctx: Context, response: SessauthResponse): void {
  ctx.set(response.headers);
  if (response.setCookies.length > 0) ctx.set('set-cookie', [...response.setCookies]);
  // Body before status: Koa turns a null body into 204, and the explicit status
  // afterwards restores the contract's 200 with an empty body.
  ctx.body = response.body;
  ctx.status = response.status;
}
