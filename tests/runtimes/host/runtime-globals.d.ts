/// <reference path="../../../examples/cloudflare/src/workers-types.d.ts" />
// The Deno and workerd globals the entries use, typed by structure (Bun's come from @types/bun; the
// Durable Object and `.wasm` declarations are the Cloudflare example's).
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
