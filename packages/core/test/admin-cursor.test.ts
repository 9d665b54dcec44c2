import { describe, expect, it } from 'vitest';
import { decodeAdminCursor, encodeAdminCursor } from '../src/store/admin-cursor.js';

describe('admin cursor', () => {
  it('round-trips a position, milliseconds and any id included', () => {
    for (const id of ['abc', 'A-b_9', 'id:with:colons', 'ünïcødé-😀']) {
      const position = { createdAt: new Date(1_717_171_717_123), id };
      const cursor = encodeAdminCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeAdminCursor(cursor)).toEqual(position);
    }
  });

  it('is base64url of "<ms>:<id>" without padding', () => {
    expect(encodeAdminCursor({ createdAt: new Date(5), id: 'x' })).toBe('NTp4');
    expect(decodeAdminCursor('NTp4')).toEqual({ createdAt: new Date(5), id: 'x' });
  });

  it('answers null for anything it did not produce', () => {
    const b64 = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const malformed = [
      '',
      'NTp4=', // padding
      'NTp4!', // outside the alphabet
      'a'.repeat(600),
      b64('5'), // no separator
      b64('5:'), // no id
      b64(':x'), // no time
      b64('-5:x'),
      b64('05:x'), // non-canonical number
      b64('5.5:x'),
      b64('99999999999999999:x'), // beyond a Date
      '_w', // a lone 0xff byte: not UTF-8
    ];
    for (const cursor of malformed) expect(decodeAdminCursor(cursor), cursor).toBeNull();
  });
});
