import { expect } from 'vitest';
import type { ParsedSetCookie } from './cookie-jar.js';
import { isClearingCookie } from './cookie-jar.js';
import type { HttpResult } from './http-client.js';

interface Answer {
  readonly status: number;
  readonly errorCode: string | undefined;
  readonly text: string;
}

/** The answer is `status` with `{"error_code": code}` (one of `code` when a list). */
export function expectError(answer: Answer, status: number, code: string | readonly string[]): void {
  expect(answer.status, `status of ${answer.text}`).toBe(status);
  if (typeof code === 'string') expect(answer.errorCode, answer.text).toBe(code);
  else expect(code, `error_code of ${answer.text}`).toContain(answer.errorCode);
}

/** A client error with a code: never a 500, never an error without `error_code`. */
export function expectClientError(answer: Answer, statuses: readonly number[], what = ''): void {
  expect(statuses, `status for ${what.slice(0, 120)}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
  expect(answer.errorCode, `error_code for ${what.slice(0, 120)}: ${answer.text.slice(0, 200)}`).toMatch(/^[a-z_]+$/);
}

/** 200 with an empty body (DELETE and both logouts). */
export function expectEmptyOk(answer: Answer): void {
  expect(answer.status, answer.text).toBe(200);
  expect(answer.text).toBe('');
}

export function expectNoStore(result: Pick<HttpResult, 'headers' | 'status'>, what: string): void {
  expect(result.headers.get('cache-control') ?? '', `Cache-Control of ${what} (${result.status})`).toMatch(/(^|[\s,])no-store($|[\s,])/);
  expect(result.headers.get('pragma') ?? '', `Pragma of ${what} (${result.status})`).toMatch(/no-cache/);
}

export function cookieNamed(result: Pick<HttpResult, 'setCookies'>, name: string): ParsedSetCookie | undefined {
  return result.setCookies.find((cookie) => cookie.name === name);
}

/** The response clears cookie `name` on `path` (a clear on another path would leave it in the browser). */
export function expectCookieCleared(result: Pick<HttpResult, 'setCookies'>, name: string, path: string): void {
  const cookie = cookieNamed(result, name);
  expect(cookie, `a Set-Cookie clearing ${name}`).toBeDefined();
  expect(cookie !== undefined && isClearingCookie(cookie), cookie?.raw).toBe(true);
  expect(cookie?.attributes.get('path'), cookie?.raw).toBe(path);
}

/** Nothing in the response touches cookie `name`. */
export function expectCookieUntouched(result: Pick<HttpResult, 'setCookies'>, name: string): void {
  expect(cookieNamed(result, name)?.raw).toBeUndefined();
}
