import type { ResolvedOptions } from '../options/options.js';

// What a cookie's Path may hold (visible ASCII but ';'): a mount taken from a pattern such as
// Express's `app.use('/:tenant', ...)` comes from the client and must not reach a Set-Cookie line.
const COOKIE_SAFE_PATH = /^(?:\/[\x21-\x2e\x30-\x3a\x3c-\x7e]+)+$/;

/**
 * Where the endpoints of this request are mounted: the mount the framework reported
 * (`reported`, such as Express's `req.baseUrl`), or the longest segment-prefix of it under
 * which `path` (the full path the client sent) lies inside one of `prefixes`; '' is the root,
 * null: the path is none of ours at any of those mounts. The shorter candidates cover a mount
 * that swallowed the prefix itself: `app.use('/auth', ...)`, or Nest's `forRoutes('*')`, whose
 * wildcard reports the whole path as the mount.
 */
export function resolveMount(path: string, reported: string, prefixes: readonly string[]): string | null {
  let candidate = reported.endsWith('/') ? reported.slice(0, -1) : reported;
  for (;;) {
    if (isMountPath(candidate)) {
      for (const prefix of prefixes) if (isUnder(path, `${candidate}${prefix}`)) return candidate;
    }
    if (candidate === '') return null;
    candidate = candidate.slice(0, candidate.lastIndexOf('/'));
  }
}

/** A mount a cookie Path can carry: '' (the root) or `/segment...` without ';', spaces or a trailing slash. */
export function isMountPath(mount: string): boolean {
  return mount === '' || COOKIE_SAFE_PATH.test(mount);
}

/** True for `base` itself and every path below it. */
export function isUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The settings as a request mounted at `mount` sees them: both prefixes under the mount, and
 * the refresh cookie's default Path with them (an explicit JWT_REFRESH_COOKIE_PATH is the
 * cookie's Path attribute as written). The CSRF cookie stays on Path `/`: the page's script,
 * wherever it is served, must read it. At the root the settings are returned as they are.
 */
export function mountedOptions(options: ResolvedOptions, mount: string): ResolvedOptions {
  if (mount === '') return options;
  return {
    ...options,
    prefix: `${mount}${options.prefix}`,
    adminPrefix: `${mount}${options.adminPrefix}`,
    refreshCookiePath: mountedCookiePath(options.refreshCookiePath, options.prefix, mount),
  };
}

/** The refresh cookie's Path under `mount`: the default (`<prefix>/refresh/`) follows it, an explicit one does not. */
export function mountedCookiePath(cookiePath: string, prefix: string, mount: string): string {
  return cookiePath === `${prefix}/refresh/` ? `${mount}${cookiePath}` : cookiePath;
}
