import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../src/errors/sessauth-error.js';
import { createMmdbProvider } from '../src/geo/mmdb/mmdb-provider.js';
import { mmdbRecordToLocation } from '../src/geo/mmdb/mmdb-record-to-location.js';
import type { PublicSession } from '../src/endpoints/public-session.js';
import { apiLogin, createHarness, sessauthRequest } from './helpers/sessauth-harness.js';

// A freely redistributable country database from the npm registry (a dev dependency).
const DATABASE = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb');

const ask = async (ip: string, provider: Awaited<ReturnType<typeof createMmdbProvider>>) => provider(ip, new AbortController().signal);

describe('mmdb provider with a real database file', () => {
  it('finds the country of IPv4 and IPv6 addresses', async () => {
    const provider = await createMmdbProvider({ path: DATABASE });
    await expect(ask('81.2.69.160', provider)).resolves.toEqual({ country_code: 'GB' });
    expect(await ask('8.8.8.8', provider)).toEqual({ country_code: 'US' });
    expect(await ask('2a00:1450:4001:80b::200e', provider)).toMatchObject({ country_code: expect.stringMatching(/^[A-Z]{2}$/) });
  });

  it('gives null for an address the database does not know', async () => {
    const provider = await createMmdbProvider({ path: DATABASE });
    expect(await ask('10.0.0.1', provider)).toBeNull();
  });

  it('accepts the bytes instead of a path', async () => {
    const provider = await createMmdbProvider({ database: readFileSync(DATABASE) });
    expect(await ask('81.2.69.160', provider)).toEqual({ country_code: 'GB' });
  });

  it('fails at start-up, naming the setting, on a missing or foreign file', async () => {
    await expect(createMmdbProvider({ path: '/nonexistent/file.mmdb' })).rejects.toThrow(SettingsError);
    await expect(createMmdbProvider({ path: '/nonexistent/file.mmdb' })).rejects.toThrow(
      /JWT_GEOLOCATION_PROVIDER: cannot read the mmdb file \(ENOENT\)/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'sessauth-mmdb-'));
    try {
      writeFileSync(join(dir, 'fake.mmdb'), 'not a database at all');
      await expect(createMmdbProvider({ path: join(dir, 'fake.mmdb') })).rejects.toThrow(/not a MaxMind-format database/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('locates a login from a public address, and never looks up a private one', async () => {
    const provider = await createMmdbProvider({ path: DATABASE });
    const calls: string[] = [];
    const counting = (ip: string, signal: AbortSignal) => {
      calls.push(ip);
      return provider(ip, signal);
    };
    for (const [peer, expected] of [
      ['81.2.69.160', { country_code: 'GB' }],
      ['192.168.0.7', null],
    ] as const) {
      const { auth } = await createHarness({ geolocation: counting });
      const token = await apiLogin(auth, 'alice', { peerAddress: peer });
      const listed = await auth.handle(sessauthRequest({ path: '/auth/sessions/', headers: { authorization: `Bearer ${token}` } }));
      expect((JSON.parse(listed!.body!) as PublicSession[])[0]!.location).toEqual(expected);
    }
    expect(calls).toEqual(['81.2.69.160']);
  });
});

describe('mmdb record mapping', () => {
  it("reads MaxMind's City layout in the chosen language, falling back to English", () => {
    const record = {
      city: { names: { en: 'London', de: 'London' } },
      subdivisions: [{ names: { en: 'England', fr: 'Angleterre' } }],
      country: { iso_code: 'GB', names: { en: 'United Kingdom', fr: 'Royaume-Uni' } },
      location: { latitude: 51.5142, longitude: -0.0931, accuracy_radius: 50 },
    };
    expect(mmdbRecordToLocation(record, 'fr')).toEqual({
      city: 'London',
      region: 'Angleterre',
      country: 'Royaume-Uni',
      country_code: 'GB',
      latitude: 51.5142,
      longitude: -0.0931,
    });
  });

  it('reads the flat layout of ip-location-db city files', () => {
    expect(mmdbRecordToLocation({ city: 'Berlin', state1: 'Land Berlin', country_code: 'DE', latitude: 52.52, longitude: 13.4 })).toEqual({
      city: 'Berlin',
      region: 'Land Berlin',
      country_code: 'DE',
      latitude: 52.52,
      longitude: 13.4,
    });
  });

  it('drops what is malformed: out-of-range coordinates, wrong types, control characters', () => {
    expect(mmdbRecordToLocation({ location: { latitude: 123, longitude: 500 } })).toBeNull();
    expect(mmdbRecordToLocation({ country_code: 'GBR', city: 'A\u0000B' })).toBeNull();
    expect(mmdbRecordToLocation('GB')).toBeNull();
    expect(mmdbRecordToLocation(null)).toBeNull();
  });
});
