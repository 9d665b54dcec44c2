import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ADAPTER_TEST_IDS,
  type AdapterConformanceOptions,
  type AdapterSkipEntry,
  type AdapterTestId,
  type AdapterTestTopic,
  type StoreConformanceOptions,
} from '@sessauth/conformance';

const TOPICS = [
  'seed/',
  'login/',
  'refresh/',
  'refresh-token/',
  'access-token/',
  'sessions/',
  'activity/',
  'logout/',
  'step-up/',
  'access-cookie/',
  'dpop/',
  'device-bound/',
  'transport/',
  'csrf/',
  'content-type/',
  'headers/',
  'throttle/',
  'client-ip/',
  'geolocation/',
  'faults/',
  'hostile/',
  'details/',
  'one-answer/',
  'password/',
  'events/',
  'idle/',
  'remember/',
  'keys/',
  'mount/',
] as const;

describe('typed test ids', () => {
  // The `@ts-expect-error` lines are checked by `tsc` (the package's typecheck): an id
  // the suite does not have must not compile, in the HTTP kit as in the store kit.
  it('options.skip takes ids and topics of the suites, and nothing else', () => {
    const http: AdapterConformanceOptions = { skip: ['csrf/origin', 'csrf/', 'seed/browser-flow-both'] };
    // @ts-expect-error: a misspelt id
    const misspelt: AdapterConformanceOptions = { skip: ['csrf/orign'] };
    // @ts-expect-error: a topic without its slash is not a topic
    const bareTopic: AdapterConformanceOptions = { skip: ['csrf'] };
    const store: StoreConformanceOptions = { skip: ['cross-instance'] };
    // @ts-expect-error: not a store group
    const unknownGroup: StoreConformanceOptions = { skip: ['rotate-races'] };
    expect([http, misspelt, bareTopic, store, unknownGroup].map((options) => options.skip?.length)).toEqual([3, 1, 1, 1, 1]);
  });

  it('the topics are exactly the prefixes of the ids', () => {
    expectTypeOf<AdapterTestTopic>().toEqualTypeOf<(typeof TOPICS)[number]>();
    expectTypeOf<AdapterSkipEntry>().toEqualTypeOf<AdapterTestId | AdapterTestTopic>();
    const prefixes = new Set(ADAPTER_TEST_IDS.map((id) => id.slice(0, id.indexOf('/') + 1)));
    expect([...prefixes]).toEqual([...TOPICS]);
  });

  it('lists every id once, each `<topic>/<kebab-case name>`', () => {
    expect(new Set(ADAPTER_TEST_IDS).size).toBe(ADAPTER_TEST_IDS.length);
    for (const id of ADAPTER_TEST_IDS) expect(id).toMatch(/^[a-z-]+\/[a-z0-9-]+$/);
  });
});
