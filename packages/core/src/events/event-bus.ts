import type { Logger } from '../log/logger.js';
import { settleWithin } from '../time/settle-within.js';
import type { SessauthEventHandler, SessauthEventHandlers, SessauthEventMap, SessauthEventName } from './session-events.js';

/** How long a payload may take to build (its store read included) before the event is dropped and logged. */
const BUILD_DEADLINE_MS = 5_000;
/** How long one handler may run before it is logged as failed; the others never wait for it. */
const HANDLER_DEADLINE_MS = 30_000;

class EventDeadline extends Error {
  override readonly name = 'EventDeadline';
}

/**
 * The engine's events. Handlers run after the state change committed and after the
 * response is on its way (a macrotask later), never inside a store's atomic step;
 * a slow or failing handler neither delays nor fails a request: errors are logged.
 * A payload builder runs only when someone listens, so an unused event costs nothing
 * (a login's "new device?" read happens only for a `login` handler). The build has its own
 * deadline, and every handler runs on its own with its own deadline: one that never settles
 * delays none of the others.
 */
export class EventBus {
  private readonly handlers = new Map<SessauthEventName, Set<SessauthEventHandler<never>>>();
  // Dispatches scheduled or running: a Workers runtime ends a request's work at its response
  // unless it is handed to ctx.waitUntil, so `settled()` gives the adapter something to hand over.
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly logger: Logger,
    initial: SessauthEventHandlers = {},
  ) {
    for (const [name, handler] of Object.entries(initial) as Array<[SessauthEventName, SessauthEventHandler<never> | undefined]>) {
      if (handler !== undefined) this.set(name).add(handler);
    }
  }

  on<E extends SessauthEventName>(name: E, handler: SessauthEventHandler<E>): () => void {
    const set = this.set(name);
    set.add(handler as SessauthEventHandler<never>);
    return () => set.delete(handler as SessauthEventHandler<never>);
  }

  listens(name: SessauthEventName): boolean {
    return (this.handlers.get(name)?.size ?? 0) > 0;
  }

  /** Schedules `build` (then every handler of `name`) after the current request's work. */
  emit<E extends SessauthEventName>(name: E, build: () => SessauthEventMap[E] | Promise<SessauthEventMap[E]>): void {
    if (!this.listens(name)) return;
    const done = new Promise<void>((resolve) => setTimeout(() => resolve(this.dispatch(name, build)), 0));
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  /** Resolves when every event emitted so far has been handled (handlers never reject it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async dispatch<E extends SessauthEventName>(name: E, build: () => SessauthEventMap[E] | Promise<SessauthEventMap[E]>): Promise<void> {
    let event: SessauthEventMap[E];
    try {
      event = await settleWithin(
        BUILD_DEADLINE_MS,
        async () => build(),
        () => new EventDeadline(),
      );
    } catch (error) {
      this.logger.error('event_failed', { for_event: name, error: errorName(error) });
      return;
    }
    const handlers = [...(this.handlers.get(name) ?? [])] as SessauthEventHandler<E>[];
    await Promise.all(
      handlers.map((handler) =>
        settleWithin(
          HANDLER_DEADLINE_MS,
          async () => handler(event),
          () => new EventDeadline(),
        ).catch((error: unknown) => {
          this.logger.error('event_handler_failed', { for_event: name, error: errorName(error) });
        }),
      ),
    );
  }

  private set(name: SessauthEventName): Set<SessauthEventHandler<never>> {
    let set = this.handlers.get(name);
    if (set === undefined) this.handlers.set(name, (set = new Set()));
    return set;
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
