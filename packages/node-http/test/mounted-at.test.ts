import { describe, expect, it } from 'vitest';
import { mountedAt } from '../src/index.js';

describe('mountedAt: the mount a framework left when it cut req.url', () => {
  it('is the part of the original path before the routed one, query ignored', () => {
    expect(mountedAt('/api/auth/login/?x=1', '/auth/login/?x=1')).toEqual({ originalUrl: '/api/auth/login/?x=1', mountPath: '/api' });
    expect(mountedAt('/api/v1/auth/csrf/', '/auth/csrf/')).toEqual({ originalUrl: '/api/v1/auth/csrf/', mountPath: '/api/v1' });
  });

  it("is the whole path for a wildcard that left '/' (Nest's forRoutes('*')); the core cuts it back", () => {
    expect(mountedAt('/auth/login/', '/')).toEqual({ originalUrl: '/auth/login/', mountPath: '/auth/login' });
  });

  it('is undefined when nothing was cut, or the URL was rewritten rather than cut', () => {
    expect(mountedAt('/auth/login/', '/auth/login/')).toBeUndefined();
    expect(mountedAt('/login', '/auth/login')).toBeUndefined();
  });
});
