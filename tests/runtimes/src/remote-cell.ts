import type { AdapterConformanceInput, AdapterSkipEntry, RemoteApp, RemoteAppSetup, TestAppAuth } from '@sessauth/conformance';
import type { ResolvedOptions, SessionStore } from '@sessauth/core';
import type { EngineSetup, EngineStarted, MountKind } from '../host/engine-setup.js';
import { CallbackServer } from './callback-server.js';
import { ControlClient } from './control-client.js';

/**
 * The runtimes' control app serves each engine at the root of its own server; mounting under a
 * path is the framework's (Hono `basePath`), proven on Node by the matrix's `mount/` cases.
 */
export const REMOTE_SKIP: readonly AdapterSkipEntry[] = ['mount/'];

/** A runtime process serving the control app for one cell. */
export interface RuntimeProcess {
  readonly controlUrl: string;
  close(): Promise<void>;
}

/** The cell's store in the runtime, called from here (for the suites' `app.store` and for wrapped stores). */
async function remoteStore(control: ControlClient): Promise<SessionStore> {
  const names = (await control.call('/store', { target: 'store', method: '$methods', args: [] })) as string[];
  const store: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of names) store[name] = (...args) => control.call('/store', { target: 'store', method: name, args });
  return store as unknown as SessionStore;
}

/**
 * One conformance cell whose engines run in another runtime: `launch` starts the runtime
 * with the cell's store; each test app is an engine built there over it (see host/control-app.ts).
 */
export function remoteCell(launch: () => Promise<RuntimeProcess | null>, mount: MountKind): AdapterConformanceInput {
  let control: ControlClient | undefined;
  const callbacks = new CallbackServer();
  let nextHandler = 0;

  const startRemoteApp = async (setup: RemoteAppSetup): Promise<RemoteApp> => {
    if (control === undefined) throw new Error('the runtime is not running');
    const runtime = control;
    const { extras } = setup;
    const handlers = new Map<string, (event: unknown) => unknown>();
    const registered = callbacks.register({ users: setup.users, extras, store: setup.store, handlers });
    const engineSetup: EngineSetup = {
      options: setup.options,
      callbackUrl: registered.url,
      clockOffsetMs: setup.clock.now().getTime() - Date.now(),
      mount,
      storeThroughNode: extras.wrapStore !== undefined,
      rateLimitStoreThroughNode: extras.rateLimitStore !== undefined,
      geolocationThroughNode: extras.geolocation !== undefined,
    };
    const started = (await runtime.request('POST', '/engines/', engineSetup)) as EngineStarted;
    const path = `/engines/${started.id}`;
    setup.clock.onAdvance = (offsetMs) => void runtime.requestNow('POST', `${path}/clock`, { offsetMs });
    let finalLines: readonly string[] | undefined;
    setup.logger.remoteLines = () => finalLines ?? (runtime.requestNow('GET', `${path}/logs`) as string[]);

    const auth: TestAppAuth = {
      options: started.options as ResolvedOptions,
      on: (name, handler) => {
        const id = String(++nextHandler);
        handlers.set(id, handler as (event: unknown) => unknown);
        // Subscribed before the test's next request can emit the event.
        runtime.requestNow('POST', path, { target: 'auth', method: 'on', args: [name, id] });
        return () => void runtime.call(path, { target: 'auth', method: 'off', args: [id] });
      },
      invalidateAllForUser: async (userId, options) =>
        (await runtime.call(path, { target: 'auth', method: 'invalidateAllForUser', args: [userId, options] })) as number,
      purgeExpired: async () => (await runtime.call(path, { target: 'auth', method: 'purgeExpired', args: [] })) as number,
    };
    return {
      auth,
      baseUrl: started.baseUrl,
      close: async () => {
        finalLines = (await runtime.request('DELETE', path)) as string[];
        registered.forget();
      },
    };
  };

  return {
    startRemoteApp,
    makeStore: async () => {
      const process = await launch();
      if (process === null) return null;
      await callbacks.start();
      control = new ControlClient(process.controlUrl);
      return {
        store: await remoteStore(control),
        close: async () => {
          await callbacks.close();
          await process.close();
        },
      };
    },
  };
}
