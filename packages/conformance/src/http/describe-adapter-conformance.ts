import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterTestId } from './adapter-test-ids.js';
import { findLogLeaks } from './capturing-logger.js';
import { startTestApp, type CellParts, type TestApp } from './conformance-app.js';
import type { AdapterConformanceInput, AdapterConformanceOptions } from './conformance-types.js';
import { clientIpSuite } from './client-ip-suite.js';
import { contractDetailsSuite } from './contract-details-suite.js';
import { contentTypeSuite } from './content-type-suite.js';
import { csrfSuite } from './csrf-suite.js';
import { eventsDeliverySuite, eventsSuite } from './events-suite.js';
import { faultsSuite } from './faults-suite.js';
import { geolocationSuite } from './geolocation-suite.js';
import { headersSuite } from './headers-suite.js';
import { hostileInputSuite } from './hostile-input-suite.js';
import { idleSuite } from './idle-suite.js';
import { keyRotationSuite } from './key-rotation-suite.js';
import { loginFloodSuite } from './login-flood-suite.js';
import { loginSuite } from './login-suite.js';
import { logoutSuite } from './logout-suite.js';
import { mountSuite } from './mount-suite.js';
import { stepUpSuite } from './step-up-suite.js';
import { dpopSuite } from './dpop-suite.js';
import { deviceBoundSuite } from './device-bound-suite.js';
import { oneAnswerSuite } from './one-answer-suite.js';
import { openApiViolations } from './openapi/openapi-check.js';
import { recordResponsesOf, stopRecording, type RecordedResponse } from './openapi/response-recorder.js';
import { passwordChangeSuite } from './password-change-suite.js';
import { refreshSuite } from './refresh-suite.js';
import { refreshTokenSuite } from './refresh-token-suite.js';
import { rememberSuite } from './remember-suite.js';
import { seedFlowSuite } from './seed-flow-suite.js';
import { sessionNamesSuite } from './session-names-suite.js';
import { activitySuite } from './activity-suite.js';
import { sessionsSuite } from './sessions-suite.js';
import type { SuiteKit } from './suite-kit.js';
import { throttleSuite } from './throttle-suite.js';
import { accessCookieSuite } from './access-cookie-suite.js';
import { accessTokenSuite } from './access-token-suite.js';
import { transportSuite } from './transport-suite.js';

/**
 * The HTTP conformance suite: runs the whole wire contract against one adapter x
 * store cell over a real socket on 127.0.0.1. Every test builds its own engine and
 * app (fresh users, clock and settings) over the cell's shared store, and ends by
 * proving no log line carried a token, password or IP. Test ids (`"csrf/origin"`)
 * prefix each test name; `options.skip` takes ids or topics (`"csrf/"`).
 *
 * The store is opened once per cell and never reset (users have random ids), but
 * the purge test deletes every revoked row in it: do not share one database between
 * cells that run at the same time.
 */
export function describeAdapterConformance(name: string, input: AdapterConformanceInput, options: AdapterConformanceOptions = {}): void {
  const skip = options.skip ?? [];
  const isSkipped = (id: AdapterTestId) => skip.some((entry) => entry === id || (entry.endsWith('/') && id.startsWith(entry)));

  describe(`sessauth HTTP conformance: ${name}`, () => {
    let cell: CellParts | null = null;
    const closers: Array<() => Promise<void>> = [];
    const running: TestApp[] = [];
    const recorded = new Map<TestApp, RecordedResponse[]>();

    beforeAll(async () => {
      const opened = await input.makeStore();
      if (opened === null) return;
      closers.push(opened.close);
      const limiter = input.makeRateLimitStore === undefined ? undefined : await input.makeRateLimitStore();
      if (limiter !== undefined) closers.push(limiter.close);
      cell = {
        mountApp: input.mountApp,
        startRemoteApp: input.startRemoteApp,
        store: opened.store,
        rateLimitStore: limiter?.store,
        instrumentation: options.instrumentation,
      };
    });

    afterAll(async () => {
      for (const close of closers.reverse()) await close();
    });

    afterEach(async () => {
      const apps = running.splice(0);
      await Promise.all(apps.map((app) => app.close()));
      const leaks = apps.flatMap((app) => findLogLeaks(app.logger.lines, app.secrets));
      expect(leaks, 'log lines must not carry a token, password or IP').toEqual([]);
      if (options.checkOpenApi === true) await checkAgainstOpenApi(apps, recorded);
    });

    const kit: SuiteKit = {
      test(id, title, body, testOptions = {}) {
        const declare = isSkipped(id) ? it.skip : it;
        declare(
          `${id}: ${title}`,
          async (context) => {
            if (cell === null) return context.skip('the store of this cell is unavailable');
            if (testOptions.needs === 'activity' && (cell.store.appendActivity === undefined || cell.store.listActivity === undefined)) {
              return context.skip('the store of this cell has no activity history (appendActivity/listActivity)');
            }
            await body();
          },
          testOptions.timeoutMs,
        );
      },
      async start(overrides = {}, extras = {}) {
        if (cell === null) throw new Error('no store: the cell should have been skipped');
        const app = await startTestApp(cell, overrides, extras);
        running.push(app);
        if (options.checkOpenApi === true) recorded.set(app, recordResponsesOf(app.baseUrl));
        return app;
      },
    };

    seedFlowSuite(kit);
    loginSuite(kit);
    loginFloodSuite(kit);
    refreshSuite(kit);
    refreshTokenSuite(kit);
    accessTokenSuite(kit);
    sessionsSuite(kit);
    sessionNamesSuite(kit);
    activitySuite(kit);
    logoutSuite(kit);
    stepUpSuite(kit);
    accessCookieSuite(kit);
    dpopSuite(kit);
    deviceBoundSuite(kit);
    transportSuite(kit);
    csrfSuite(kit);
    contentTypeSuite(kit);
    headersSuite(kit);
    throttleSuite(kit);
    clientIpSuite(kit);
    geolocationSuite(kit);
    faultsSuite(kit);
    hostileInputSuite(kit);
    contractDetailsSuite(kit);
    oneAnswerSuite(kit);
    passwordChangeSuite(kit);
    eventsSuite(kit);
    eventsDeliverySuite(kit);
    idleSuite(kit);
    rememberSuite(kit);
    keyRotationSuite(kit);
    mountSuite(kit);
  });
}

/** Each app's recorded answers against the description of that app's settings. */
async function checkAgainstOpenApi(apps: readonly TestApp[], recorded: Map<TestApp, RecordedResponse[]>): Promise<void> {
  // Loaded only when asked for, so the kit still loads beside a core without the subpath.
  const { openApiDocument } = await import('@sessauth/core/openapi');
  const violations = apps.flatMap((app) => {
    const records = recorded.get(app) ?? [];
    recorded.delete(app);
    stopRecording(app.baseUrl);
    return openApiViolations(openApiDocument({ ...app.auth.options, mountPath: app.mountPath }), records);
  });
  expect(violations, 'every answer must follow the OpenAPI description').toEqual([]);
}
