import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { createIpapiProvider } from '../src/geo/ipapi-provider.js';
import type { GeolocationProvider } from '../src/geo/location.js';
import { HOSTILE_ANSWERS, LONDON, PUBLIC_IP } from './helpers/hostile-geo-answers.js';
import { json, startLocalHttpsServer, type LocalHttpsServer } from './helpers/local-https-server.js';

let server: LocalHttpsServer;
beforeAll(async () => {
  server = await startLocalHttpsServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.headers.length = 0;
});

function provider(extra: { timeoutMs?: number; maxResponseBytes?: number } = {}): GeolocationProvider {
  return createIpapiProvider({ thirdPartyConsent: true, baseUrl: server.origin, fetch: server.fetch, ...extra });
}

const lookup = (p: GeolocationProvider, ip = PUBLIC_IP): Promise<unknown> => Promise.resolve(p(ip, new AbortController().signal));

describe('ipapi provider against a local HTTPS server', () => {
  it('maps the ipapi.co shape to a location, asking once at /<ip>/json/ without cookies', async () => {
    server.respond = (_req, res) => json(res, LONDON);
    await expect(lookup(provider())).resolves.toEqual({
      city: 'London',
      region: 'England',
      country: 'United Kingdom',
      country_code: 'GB',
      latitude: 51.5,
      longitude: -0.12,
    });
    expect(server.requests).toEqual([`/${PUBLIC_IP}/json/`]);
    expect(server.headers[0]).toMatchObject({ accept: 'application/json' });
    expect(server.headers[0]!.cookie).toBeUndefined();
    expect(server.headers[0]!.referer).toBeUndefined();
  });

  it('reads an IPv6 address into the path as is', async () => {
    server.respond = (_req, res) => json(res, { country_code: 'de' });
    await expect(lookup(provider(), '2a00:1450:4001:80b::200e')).resolves.toEqual({ country_code: 'DE' });
    expect(server.requests).toEqual(['/2a00:1450:4001:80b::200e/json/']);
  });

  it('takes `error: true` (reserved address, rate limit) as "no location"', async () => {
    server.respond = (_req, res) => json(res, { ip: PUBLIC_IP, error: true, reason: 'RateLimited' });
    await expect(lookup(provider())).resolves.toBeNull();
  });

  it.each(Object.keys(HOSTILE_ANSWERS))('rejects %s', async (name) => {
    const [respond, reason] = HOSTILE_ANSWERS[name]!;
    server.respond = respond;
    await expect(lookup(provider())).rejects.toThrow(reason);
  });

  it('never follows a redirect', async () => {
    server.respond = HOSTILE_ANSWERS['a redirect']![0];
    await expect(lookup(provider())).rejects.toThrow(/status 302/);
    expect(server.requests).toEqual([`/${PUBLIC_IP}/json/`]);
  });

  it('stops reading at the byte bound, counted after decompression', async () => {
    server.respond = HOSTILE_ANSWERS['a small gzip answer that inflates to 5 MB']![0];
    await expect(lookup(provider({ maxResponseBytes: 4096 }))).rejects.toThrow(/too large/);
  });

  it('gives up at its own timeout when the server never answers', async () => {
    server.respond = () => undefined; // headers never come
    const started = Date.now();
    await expect(lookup(provider({ timeoutMs: 200 }))).rejects.toThrow();
    // A bound, not a timing assertion: it must not wait for the server (which never answers).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops when the core aborts the lookup', async () => {
    server.respond = () => undefined;
    const controller = new AbortController();
    const pending = Promise.resolve(provider({ timeoutMs: 60_000 })(PUBLIC_IP, controller.signal));
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
  });
});

describe('ipapi provider settings', () => {
  it('is off without explicit third-party consent', () => {
    expect(() => createIpapiProvider({ thirdPartyConsent: false })).toThrow(SettingsError);
    expect(() => createIpapiProvider({} as never)).toThrow(/JWT_GEOLOCATION_THIRD_PARTY_CONSENT/);
  });

  it('takes only a plain https base URL and positive bounds', () => {
    for (const baseUrl of ['http://ipapi.co', 'https://user:pw@ipapi.co', 'https://ipapi.co/?x=1', 'not a url']) {
      expect(() => createIpapiProvider({ thirdPartyConsent: true, baseUrl })).toThrow(SettingsError);
    }
    expect(() => createIpapiProvider({ thirdPartyConsent: true, timeoutMs: 0 })).toThrow(SettingsError);
    expect(() => createIpapiProvider({ thirdPartyConsent: true, maxResponseBytes: 1.5 })).toThrow(SettingsError);
  });
});
