import type { PasswordHasher } from '@sessauth/core';
import { conformanceRoutes, type PeerHandler } from './conformance-routes.js';
import type { ControlCall, EngineSetup, EngineStarted } from './engine-setup.js';
import { buildRemoteEngine, methodNames, type CellStores, type RemoteEngine } from './remote-engine.js';
import { decodeWire, encodeWire, failureOf } from './wire.js';

/** How a runtime serves one test app on 127.0.0.1 (its own port, or a free worker socket). */
export type ServeApp = (handler: PeerHandler) => Promise<{ baseUrl: string; close(): Promise<void> }>;

interface Running {
  readonly engine: RemoteEngine;
  readonly close: () => Promise<void>;
}

/**
 * The runtime's control endpoint, which Node's suite drives:
 * `POST /engines` builds an engine for one test app and serves it; `POST /engines/<id>/clock`,
 * `GET /engines/<id>/logs`, `POST /engines/<id>/call` (auth: on/off/invalidateAllForUser/purgeExpired),
 * `DELETE /engines/<id>`; `POST /store` calls the cell's store. Test-only: it is never in an example.
 */
export function controlApp(cell: CellStores, hasher: PasswordHasher, serve: ServeApp): (request: Request) => Promise<Response> {
  const engines = new Map<string, Running>();
  let next = 0;

  const create = async (setup: EngineSetup): Promise<EngineStarted> => {
    const id = String(++next);
    const engine = await buildRemoteEngine(setup, cell, hasher, id);
    const server = await serve(conformanceRoutes(setup.mount, engine.auth, engine.setPassword));
    engines.set(id, { engine, close: server.close });
    return { id, baseUrl: server.baseUrl, options: engine.auth.options };
  };

  const callEngine = async (engine: RemoteEngine, call: ControlCall): Promise<unknown> => {
    const [first] = call.args;
    if (call.method === 'on') {
      const [name, handlerId] = call.args as [Parameters<typeof engine.auth.on>[0], string];
      const off = engine.auth.on(name, async (event: unknown) => void (await engine.callNode('event', 'dispatch', [handlerId, event])));
      engine.subscriptions.set(handlerId, off);
      return null;
    }
    if (call.method === 'off') return engine.subscriptions.get(String(first))?.();
    if (call.method === 'invalidateAllForUser') return engine.auth.invalidateAllForUser(String(first), (call.args[1] ?? {}) as { except?: string });
    if (call.method === 'purgeExpired') return engine.auth.purgeExpired();
    throw new Error(`no such engine call: ${call.method}`);
  };

  const route = async (request: Request): Promise<unknown> => {
    const [, first, id, action] = new URL(request.url).pathname.split('/');
    if (first === 'store' && request.method === 'POST') {
      const call = decodeWire(await request.text()) as ControlCall;
      if (call.method === '$methods') return methodNames(cell.store);
      const method = (cell.store as unknown as Record<string, (...args: unknown[]) => unknown>)[call.method];
      if (typeof method !== 'function') throw new Error(`the cell's store has no ${call.method}`);
      return method.apply(cell.store, [...call.args]);
    }
    if (first !== 'engines') throw new Error('not a control route');
    if (id === undefined || id === '') return create(decodeWire(await request.text()) as EngineSetup);
    const running = engines.get(id);
    if (running === undefined) throw new Error(`no engine ${id}`);
    if (request.method === 'DELETE') {
      engines.delete(id);
      await running.close();
      return running.engine.logger.lines;
    }
    if (action === 'logs') return running.engine.logger.lines;
    if (action === 'clock') {
      running.engine.clock.offsetMs = Number((decodeWire(await request.text()) as { offsetMs: number }).offsetMs);
      return null;
    }
    return callEngine(running.engine, decodeWire(await request.text()) as ControlCall);
  };

  return async (request) => {
    try {
      return new Response(encodeWire({ value: await route(request) }), { headers: { 'content-type': 'application/json' } });
    } catch (error) {
      return new Response(encodeWire(failureOf(error)), { status: 500, headers: { 'content-type': 'application/json' } });
    }
  };
}
