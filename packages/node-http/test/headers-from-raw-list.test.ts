import { describe, expect, it } from 'vitest';
import { headersFromRawList } from '../src/index.js';

describe('headersFromRawList', () => {
  it('keeps every value of a repeated header, in arrival order, whatever the case of its name', () => {
    const headers = headersFromRawList(['Cookie', 'a=1', 'Host', 'app.test', 'COOKIE', 'a=2', 'cookie', 'b=3']);
    expect(headers.get('cookie')).toEqual(['a=1', 'a=2', 'b=3']);
    expect(headers.get('host')).toEqual(['app.test']);
    expect([...headers.keys()]).toEqual(['cookie', 'host']);
  });

  it('keeps empty values and values with commas as they are (no joining, no splitting)', () => {
    const headers = headersFromRawList(['Authorization', '', 'Authorization', 'Bearer a, Bearer b']);
    expect(headers.get('authorization')).toEqual(['', 'Bearer a, Bearer b']);
  });

  it('is empty for an empty list and ignores a dangling name without a value', () => {
    expect(headersFromRawList([]).size).toBe(0);
    expect([...headersFromRawList(['Host', 'app.test', 'X-Dangling'])]).toEqual([['host', ['app.test']]]);
  });
});
