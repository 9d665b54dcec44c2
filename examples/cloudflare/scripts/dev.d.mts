/** Builds the worker into dist/ and serves it with Miniflare; `vars` add to (and override) the example's. */
export function startExample(options?: { port?: number; vars?: Record<string, string> }): Promise<{ url: URL; close(): Promise<void> }>;
