import { describe, expect, it } from 'vitest';
import { databaseEndpoint } from '../src/database-endpoint.js';
import { parsePostgresHosts } from '../src/postgres/postgres-hosts.js';

// libpq's multi-host URL, which pg cannot parse, split into one URL per host.
describe('parsePostgresHosts', () => {
  it('leaves a one-host URL without target_session_attrs to pg, untouched', () => {
    expect(parsePostgresHosts('postgres://u:p@db.example:5432/app?sslmode=require')).toBeNull();
  });

  it('splits the host list, keeps credentials, path and other parameters, and drops target_session_attrs', () => {
    const hosts = parsePostgresHosts(
      'postgresql://u:p%40ss@a.example:5432,b.example,[::1]:6543/app?sslmode=require&target_session_attrs=read-write&application_name=x',
    );
    expect(hosts).toEqual({
      urls: [
        'postgresql://u:p%40ss@a.example:5432/app?sslmode=require&application_name=x',
        'postgresql://u:p%40ss@b.example/app?sslmode=require&application_name=x',
        'postgresql://u:p%40ss@[::1]:6543/app?sslmode=require&application_name=x',
      ],
      hostPorts: ['a.example:5432', 'b.example:5432', '[::1]:6543'],
      targetSessionAttrs: 'read-write',
    });
  });

  it('checks one host for writes when asked to', () => {
    expect(parsePostgresHosts('postgres://u@db.example/app?target_session_attrs=read-write')).toEqual({
      urls: ['postgres://u@db.example/app'],
      hostPorts: ['db.example:5432'],
      targetSessionAttrs: 'read-write',
    });
  });

  it('refuses several hosts without target_session_attrs, a read-only target and an empty host', () => {
    expect(() => parsePostgresHosts('postgres://u@a:5432,b:5432/app')).toThrow(/needs target_session_attrs=read-write/);
    expect(() => parsePostgresHosts('postgres://u@a,b/app?target_session_attrs=standby')).toThrow(/must be read-write or any/);
    expect(() => parsePostgresHosts('postgres://u@a,,b/app?target_session_attrs=read-write')).toThrow(/empty host/);
  });

  it('names every host (never the password) in operator messages', () => {
    expect(databaseEndpoint('postgres://u:secret@a:5432,b:5433/app?target_session_attrs=read-write')).toEqual({
      engine: 'PostgreSQL',
      hostPort: 'a:5432,b:5433',
    });
    expect(databaseEndpoint('postgres://u@a,b/app')).toBeUndefined();
  });
});
