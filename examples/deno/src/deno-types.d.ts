// What the example uses of Deno and node:sqlite, typed by structure (tsc runs without Deno's own types;
// `deno check` uses the real ones).
declare const Deno: {
  serve(
    options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { finished: Promise<void> };
  env: { toObject(): Record<string, string>; get(name: string): string | undefined };
};
