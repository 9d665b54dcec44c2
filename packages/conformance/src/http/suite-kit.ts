import type { SessauthOptions } from '@sessauth/core';
import type { AdapterTestId } from './adapter-test-ids.js';
import type { TestApp, TestAppExtras } from './conformance-app.js';

/** Per-test settings of a suite's test. */
export interface SuiteTestOptions {
  /** For a test that waits on purpose (a slow store, a flood); otherwise the project's timeout. */
  readonly timeoutMs?: number;
  /** An optional store capability the test needs; skipped on a cell whose store lacks it. */
  readonly needs?: 'activity';
}

/** What each topic suite gets from `describeAdapterConformance`. */
export interface SuiteKit {
  /**
   * Declares one test named `<id>: <title>`. Skipped when the id (or its topic,
   * `"csrf/"`) is in `options.skip`, or when the cell's store is unavailable.
   */
  test(id: AdapterTestId, title: string, body: () => Promise<void>, options?: SuiteTestOptions): void;
  /** A fresh app for the running test (new users, clock and engine; shared store); closed after the test. */
  start(overrides?: Partial<SessauthOptions>, extras?: TestAppExtras): Promise<TestApp>;
}
