import type { SessauthOptions } from '@sessauth/core';

/** How the test app is mounted in the runtime: the bare fetch handler, or inside Hono. */
export type MountKind = 'fetch' | 'hono';

/** What the Node side asks the runtime's control endpoint for: one engine for one test app. */
export interface EngineSetup {
  readonly options: SessauthOptions;
  /** Node's callback address for this app: users, host, events and the wrapped store/limiter/geolocation. */
  readonly callbackUrl: string;
  readonly clockOffsetMs: number;
  readonly mount: MountKind;
  /** The test wraps the store: every store call goes through Node (which calls back for the real store). */
  readonly storeThroughNode: boolean;
  /** The test brings its own limiter: every `hit` goes to Node. */
  readonly rateLimitStoreThroughNode: boolean;
  /** The test brings a geolocation provider: every lookup goes to Node. */
  readonly geolocationThroughNode: boolean;
}

/** The answer to an engine setup. */
export interface EngineStarted {
  readonly id: string;
  readonly baseUrl: string;
  /** `auth.options`, as resolved by the runtime's engine. */
  readonly options: unknown;
}

/** One call from Node into the runtime: on the cell's store, or on one engine. */
export interface ControlCall {
  readonly target: 'store' | 'auth';
  readonly method: string;
  readonly args: readonly unknown[];
}

/** One call from the runtime back into Node. */
export interface CallbackCall {
  readonly target: 'users' | 'store' | 'rateLimit' | 'geolocation' | 'event';
  readonly method: string;
  readonly args: readonly unknown[];
}
