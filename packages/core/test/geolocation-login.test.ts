import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createIpapiProvider } from '../src/geo/ipapi-provider.js';
import type { GeolocationProvider } from '../src/geo/location.js';
import type { PublicSession } from '../src/endpoints/public-session.js';
import { HOSTILE_ANSWERS, LONDON, PUBLIC_IP } from './helpers/hostile-geo-answers.js';
import { json, startLocalHttpsServer, type LocalHttpsServer } from './helpers/local-https-server.js';
import { apiLogin, createHarness, sessauthRequest, silentLogger } from './helpers/sessauth-harness.js';

let server: LocalHttpsServer;
beforeAll(async () => {
  server = await startLocalHttpsServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  silentLogger.lines.length = 0;
});

/** Logs in over handle() (as an adapter would) from `peer` and reads the new session back over the API. */
async function loginFrom(peer: string, provider: GeolocationProvider): Promise<PublicSession> {
  const { auth } = await createHarness({ geolocation: provider, options: { geolocationTimeoutMs: 300 } });
  const token = await apiLogin(auth, 'alice', { peerAddress: peer });
  const listed = await auth.handle(sessauthRequest({ path: '/auth/sessions/', headers: { authorization: `Bearer ${token}` } }));
  expect(listed?.status).toBe(200);
  const sessions = JSON.parse(listed!.body!) as PublicSession[];
  expect(sessions).toHaveLength(1);
  return sessions[0]!;
}

const ipapi = (timeoutMs = 60_000): GeolocationProvider =>
  createIpapiProvider({ thirdPartyConsent: true, baseUrl: server.origin, fetch: server.fetch, timeoutMs });

describe('login with the ipapi provider', () => {
  it('stores the location of a routable address', async () => {
    server.respond = (_req, res) => json(res, LONDON);
    const session = await loginFrom(PUBLIC_IP, ipapi());
    expect(session.location).toEqual({
      city: 'London',
      region: 'England',
      country: 'United Kingdom',
      country_code: 'GB',
      latitude: 51.5,
      longitude: -0.12,
    });
    expect(server.requests).toEqual([`/${PUBLIC_IP}/json/`]);
  });

  it.each(['127.0.0.1', '10.1.2.3', '192.168.1.10', '100.64.0.1', '169.254.0.9', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1'])(
    'never sends the private or loopback address %s to the provider',
    async (peer) => {
      server.respond = (_req, res) => json(res, LONDON);
      const session = await loginFrom(peer, ipapi());
      expect(session.location).toBeNull();
      expect(server.requests).toEqual([]);
    },
  );

  it.each(Object.keys(HOSTILE_ANSWERS))('completes the login without a location on %s', async (name) => {
    server.respond = HOSTILE_ANSWERS[name]![0];
    const session = await loginFrom(PUBLIC_IP, ipapi());
    expect(session.location).toBeNull();
    expect(server.requests[0]).toBe(`/${PUBLIC_IP}/json/`);
    expect(server.requests).not.toContain('/elsewhere/');
    // Logged without the address.
    expect(silentLogger.lines).toContain('geolocation_failed');
  });

  it("completes the login without a location when the service never answers (the core's bound)", async () => {
    server.respond = () => undefined;
    const session = await loginFrom(PUBLIC_IP, ipapi());
    expect(session.location).toBeNull();
    expect(server.requests).toHaveLength(1);
  });

  it("completes the login without a location at the provider's own timeout", async () => {
    server.respond = () => undefined;
    const session = await loginFrom(PUBLIC_IP, ipapi(100));
    expect(session.location).toBeNull();
  });
});
