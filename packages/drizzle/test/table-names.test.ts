import { describe, expect, it } from 'vitest';
import { tableNames } from '../src/schema/table-names.js';

describe('derived index names', () => {
  it('fit every engine for the longest table name allowed (40): cut to 63 as PostgreSQL cuts them, so MySQL takes them', () => {
    const longest = 'sessauth_session_'.padEnd(40, 'x');
    const names = tableNames({ tableName: longest, rateLimitTableName: longest });
    for (const name of Object.values(names.index)) expect(name.length).toBeLessThanOrEqual(63);
    expect(names.index.securityEventBatch).toBe(`${longest}_security_event_batch_idx`.slice(0, 63));
    expect(names.index.securityEventDue).toBe(`${longest}_security_event_due_idx`);
    expect(() => tableNames({ tableName: `${longest}x` })).toThrow(TypeError);
  });

  it('leave a short table name whole', () => {
    expect(tableNames().index.securityEventBatch).toBe('sessauth_session_security_event_batch_idx');
  });
});
