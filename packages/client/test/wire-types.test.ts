import type { CsrfResponseBody, ErrorResponseBody, Location, PublicSession, TokenResponseBody } from '@sessauth/core';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { SessauthClientError, type SessionInfo, type SessionLocation } from '../src/index.js';
import { FakeBrowser } from './support/fake-browser.js';
import { closeTabs, openTab } from './support/tabs.js';

afterEach(closeTabs);

// The client declares its own copy of the wire shapes (it must not depend on the core
// at run time). These assertions are checked by `tsc` (the package's typecheck), so a
// change to a wire body in the core fails here until the client's copy follows it.
describe("the client's copy of the wire types is pinned to the core's", () => {
  it('SessionInfo is exactly PublicSession, and SessionLocation exactly Location', () => {
    expectTypeOf<SessionInfo>().toEqualTypeOf<PublicSession>();
    expectTypeOf<SessionLocation>().toEqualTypeOf<Location>();
  });

  it('the field names the client reads (auth-api.ts) are those the core declares', () => {
    // `token_type` comes only with DPoP (JWT_DPOP), which this client does not speak yet.
    expectTypeOf<keyof TokenResponseBody>().toEqualTypeOf<'access_token' | 'refresh_token' | 'token_type'>();
    expectTypeOf<keyof CsrfResponseBody>().toEqualTypeOf<'csrf_token'>();
    expectTypeOf<keyof ErrorResponseBody>().toEqualTypeOf<'error_code' | 'message'>();
    // Every code the core can send fits the client's `code: string`.
    expectTypeOf<ErrorResponseBody['error_code']>().toMatchTypeOf<SessauthClientError['code']>();
  });

  // The same pin at run time, on what the real engine sends: a key added to the core's
  // rows but not to SessionInfo (or the reverse) fails here too.
  it("a real session row from the engine has exactly SessionInfo's keys", async () => {
    const server = await FakeBrowser.start({ transport: 'body' });
    const tab = openTab(server, null, { transport: 'body' });
    await tab.client.login({ username: 'alice', password: 'pw' });
    const rows = await tab.client.listSessions();
    const declared = {
      id: true,
      created_at: true,
      last_activity_at: true,
      ip_address: true,
      user_agent: true,
      browser: true,
      location: true,
      is_current: true,
      name: true,
      expires_at: true,
      // Only with JWT_SESSION_ACTIVITY on, which this server leaves off: absent from the row.
      last_ip_address: false,
      last_browser: false,
    } satisfies Record<keyof SessionInfo, boolean>;
    const sent = Object.entries(declared)
      .filter(([, always]) => always)
      .map(([key]) => key);
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(sent.sort());
    expect(rows[0]!.is_current).toBe(true);
  });

  it('a real error answer carries the error_code the client surfaces', async () => {
    const server = await FakeBrowser.start({ transport: 'body' });
    const tab = openTab(server, null, { transport: 'body' });
    const refused = await tab.client.login({ username: 'alice', password: 'wrong' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessauthClientError);
    expect((refused as SessauthClientError).code).toBe('invalid_credentials' satisfies ErrorResponseBody['error_code']);
    expect((refused as SessauthClientError).status).toBe(401);
  });
});
