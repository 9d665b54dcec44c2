import { describe, expect, it } from 'vitest';
import { tableNames } from '../src/schema/table-names.js';

describe('derived index names', () => {
  it('fit MySQL for the longest table name allowed (40): the one over 64 is cut to 63, as PostgreSQL cuts it', () => {
    const longest = 'sessauth_session_'.padEnd(40, 'x');
    const names = tableNames({ tableName: longest, rateLimitTableName: longest });
    for (const name of Object.values(names.index)) expect(name.length).toBeLessThanOrEqual(64);
    expect(names.index.securityEventBatch).toBe(`${longest}_security_event_batch_idx`.slice(0, 63));
    expect(names.index.securityEventDue).toBe(`${longest}_security_event_due_idx`);
    expect(() => tableNames({ tableName: `${longest}x` })).toThrow(TypeError);
  });

  it('leave every name that fitted MySQL whole (the default, and 39 characters: 64)', () => {
    expect(tableNames().index.securityEventBatch).toBe('sessauth_session_security_event_batch_idx');
    const long = 'sessauth_session_'.padEnd(39, 'x');
    expect(tableNames({ tableName: long }).index.securityEventBatch).toBe(`${long}_security_event_batch_idx`);
  });
});
