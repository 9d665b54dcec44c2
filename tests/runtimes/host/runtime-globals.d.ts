// The few runtime globals the entries use, typed by structure (no bun-types / Deno / workers types here).
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Response | Promise<Response>;
  }): { port: number; stop(closeActiveConnections?: boolean): Promise<void> | void };
  env: Record<string, string | undefined>;
};

declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen?(address: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
  env: { get(name: string): string | undefined };
};

declare module 'cloudflare:workers' {
  export abstract class WorkerEntrypoint<Env = unknown> {
    readonly env: Env;
    readonly ctx: { waitUntil(promise: Promise<unknown>): void };
    fetch?(request: Request): Response | Promise<Response>;
  }
}

declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
