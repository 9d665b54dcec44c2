import { describe, expect, it } from 'vitest';
import { routablePath } from '../src/http/request-target.js';

describe('routablePath', () => {
  it.each([
    ['/auth/csrf/', '/auth/csrf/'],
    ['/auth/./csrf/', '/auth/csrf/'],
    ['/auth/%2e/csrf/', '/auth/csrf/'],
    ['/auth/%2E/csrf/', '/auth/csrf/'],
    ['/auth/x/../csrf/', '/auth/csrf/'],
    ['/auth/x/%2e%2E/csrf/', '/auth/csrf/'],
    ['/auth/csrf/.', '/auth/csrf/'],
    ['/auth/csrf/x/..', '/auth/csrf/'],
    ['/../../auth/csrf/', '/auth/csrf/'],
    ['/auth/sessions/a.b/', '/auth/sessions/a.b/'],
    ['/auth/sessions/.../', '/auth/sessions/.../'],
    ['http://example.com/auth/csrf/', '/auth/csrf/'],
    ['https://example.com:8443/auth/./login/', '/auth/login/'],
    ['http://example.com', '/'],
    ['*', '*'],
  ])('%s routes as %s (as a WHATWG URL parser reads it)', (raw, expected) => {
    expect(routablePath(raw)).toBe(expected);
    if (raw.startsWith('/')) expect(new URL(raw, 'http://h').pathname).toBe(expected);
  });
});
