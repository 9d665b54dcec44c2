import type { GeolocationProvider, Location } from '@sessauth/core';
import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import type { SuiteKit } from './suite-kit.js';

const PLACE: Location = { city: 'Testville', region: 'Test Region', country: 'Testland', country_code: 'TT', latitude: 1.5, longitude: -2.25 };
/** A globally routable address (never contacted: only the fake provider sees it). */
const ROUTABLE = '9.9.9.9';
const TRUST_LOOPBACK = { trustedProxyCidrs: ['127.0.0.1/32'] };

async function locationOf(app: TestApp, forwardedFor?: string): Promise<unknown> {
  const headers = forwardedFor === undefined ? undefined : { 'x-forwarded-for': forwardedFor };
  if (forwardedFor !== undefined) app.secrets.add(forwardedFor);
  const session = await app.login('alice', headers === undefined ? {} : { headers });
  const list = await session.client.get(app.at('/sessions/'), { bearer: session.access });
  return (list.body as Array<{ id: string; location: unknown }>).find((entry) => entry.id === session.sessionId)?.location;
}

/** The geolocation provider runs once per login, never for non-routable addresses, and never fails a login. */
export function geolocationSuite(kit: SuiteKit): void {
  kit.test('geolocation/once-per-login', 'the provider runs once at login; refresh and listing only read the stored place', async () => {
    const calls: string[] = [];
    const provider: GeolocationProvider = (ip) => {
      calls.push(ip);
      return PLACE;
    };
    const app = await kit.start(TRUST_LOOPBACK, { geolocation: provider });
    app.secrets.add(ROUTABLE);
    const alice = await app.login('alice', { headers: { 'x-forwarded-for': ROUTABLE } });
    expect(calls).toEqual([ROUTABLE]);
    expect((await app.refresh(alice.client, alice.refresh)).status).toBe(200);
    const list = await alice.client.get(app.at('/sessions/'), { bearer: alice.access });
    expect((list.body as Array<{ location: unknown }>)[0]?.location).toEqual(PLACE);
    expect(calls).toHaveLength(1);
  });

  kit.test('geolocation/non-routable', 'loopback, private, documentation and other non-routable addresses never reach the provider', async () => {
    const calls: string[] = [];
    const app = await kit.start(TRUST_LOOPBACK, { geolocation: (ip) => (calls.push(ip), PLACE) });
    expect(await locationOf(app)).toBeNull();
    for (const ip of [
      '10.1.2.3',
      '192.168.1.1',
      '172.16.0.1',
      '100.64.0.1',
      '169.254.1.1',
      '203.0.113.9',
      '::ffff:10.0.0.1',
      'fd00::1',
      'fe80::1',
      '2001:db8::1',
    ]) {
      expect(await locationOf(app, ip), ip).toBeNull();
    }
    expect(calls).toEqual([]);
  });

  kit.test('geolocation/failure', 'a provider that throws, hangs or answers junk: the login succeeds without a location', async () => {
    const providers: GeolocationProvider[] = [
      (ip) => {
        throw new Error(`lookup failed for ${ip}`);
      },
      () => new Promise<Location | null>(() => undefined),
      () => ({ latitude: 'north' }) as unknown as Location,
    ];
    for (const provider of providers) {
      const app = await kit.start({ ...TRUST_LOOPBACK, geolocationTimeoutMs: 50 }, { geolocation: provider });
      expect(await locationOf(app, ROUTABLE)).toBeNull();
      expect(app.logger.lines.length, 'the failure is logged').toBeGreaterThan(0);
    }
  });
}
