// The Workers APIs this example uses, typed by structure. (@cloudflare/workers-types replaces the
// DOM library wholesale, and this repository typechecks the core's source along with the example.)

declare module '*.wasm' {
  /** A compiled module: Wrangler's CompiledWasm rule, as Workers refuse to compile WebAssembly from bytes. */
  const module: WebAssembly.Module;
  export default module;
}

declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: DurableObjectState;
    protected readonly env: Env;
    constructor(ctx: DurableObjectState, env: Env);
    alarm?(): Promise<void>;
  }
}

interface DurableObjectState {
  readonly storage: {
    get<T>(key: string): Promise<T | undefined>;
    put<T>(key: string, value: T): Promise<void>;
    setAlarm(at: number): Promise<void>;
    deleteAll(): Promise<void>;
  };
}

/** A namespace binding; `get` returns an RPC stub whose methods are the object's, made async. */
interface DurableObjectNamespace<T> {
  idFromName(name: string): unknown;
  get(id: unknown): { [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

interface ExportedHandler<Env> {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
}
