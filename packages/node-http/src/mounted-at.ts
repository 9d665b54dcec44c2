/** Where a framework mounted the adapter, for a request whose `req.url` it cut. */
export interface MountedAt {
  /** The request target as the client sent it (Express `req.originalUrl`, Koa `ctx.originalUrl`). */
  readonly originalUrl: string;
  /** The part of its path before the one the framework routes on ('' at the root). */
  readonly mountPath: string;
}

/**
 * The mount a framework that cuts `req.url` (Express `app.use('/api', ...)`, koa-mount)
 * left behind: the original path minus the one routed on. Undefined when nothing was cut.
 */
export function mountedAt(originalUrl: string, url: string): MountedAt | undefined {
  const original = pathOf(originalUrl);
  const routed = pathOf(url);
  if (original === routed || !original.endsWith(routed)) return undefined;
  return { originalUrl, mountPath: original.slice(0, original.length - routed.length) };
}

function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
