import { describeAdapterConformance } from '@sessauth/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessauthOpenTelemetry } from '../src/index.js';
// The conformance app on Express exactly as the HTTP matrix mounts it: one app, two suites.
import { mountExpress } from '../../../tests/matrix/src/mounts/mount-express.js';
import { memoryStore, sqliteStore } from './support/otel-app.js';
import { createTelemetryHarness, useContextManager } from './support/telemetry-harness.js';

// The whole HTTP conformance suite on engines created with the instrumentation and the SDK
// recording every span and metric: the observer must change no answer, no header, no event.
const harness = createTelemetryHarness();
let releaseContext: () => void;
beforeAll(() => {
  releaseContext = useContextManager();
});
afterAll(async () => {
  releaseContext();
  await harness.shutdown();
});

const instrumentation = () => sessauthOpenTelemetry({ tracerProvider: harness.tracerProvider, meterProvider: harness.meterProvider });

for (const store of [memoryStore, sqliteStore]) {
  describeAdapterConformance(
    `express x ${store.label}, instrumented with OpenTelemetry`,
    {
      mountApp: mountExpress,
      makeStore: async () => {
        const opened = await store.open();
        return { store: opened.store, close: opened.close };
      },
    },
    { instrumentation },
  );
}

// Run after the suites above (files run their blocks in order): the observer was really on.
describe('the observer of the instrumented suites', () => {
  it('recorded their logins, guard calls and store calls', () => {
    const names = new Set(harness.spans().map((span) => span.name));
    for (const name of ['sessauth.login', 'sessauth.refresh', 'sessauth.guard', 'sessauth.store.findSession', 'sessauth.store.rotateRefresh']) {
      expect(names.has(name), name).toBe(true);
    }
  });
});
