import { describe, expect, it } from 'vitest';
import { isJsonContentType } from '../src/http/content-type.js';

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
    '  application/json  ',
    'application/vnd.api+json',
    'application/merge-patch+json; charset=utf-8',
    'application/ld+json',
    'APPLICATION/PROBLEM+JSON',
  ])('accepts %j', (value) => {
    expect(isJsonContentType([value])).toBe(true);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/json',
    'application/jsonp',
    'application/json-seq',
    'application/+json',
    'application/json+xml',
    'application/vnd.api+jsonx',
    'application /json',
    'application/json, text/plain',
    'application/json, application/json',
    '',
    'json',
  ])('rejects %j', (value) => {
    expect(isJsonContentType([value])).toBe(false);
  });

  it('rejects a missing header', () => {
    expect(isJsonContentType(undefined)).toBe(false);
    expect(isJsonContentType([])).toBe(false);
  });

  it('rejects repeated headers, even when both are JSON', () => {
    expect(isJsonContentType(['application/json', 'application/json'])).toBe(false);
  });
});
