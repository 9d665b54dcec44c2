import { describe, expect, it } from 'vitest';
import { describeUserAgent, storedUserAgent } from '../src/ua/describe-user-agent.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

describe('describeUserAgent', () => {
  it.each([
    [FIREFOX_LINUX, 'Firefox 128 on Linux'],
    [CHROME_WINDOWS, 'Chrome 120 on Windows 10'],
    [SAFARI_IOS, 'Mobile Safari 17 on iOS 17.5'],
    [CHROME_ANDROID, 'Chrome 124 on Android 14'],
  ])('summarises %s', (ua, summary) => {
    expect(describeUserAgent(ua)).toBe(summary);
  });

  it.each([['curl/8.4.0'], ['python-requests/2.31.0'], [''], ['   ']])('gives null for %j', (ua) => {
    expect(describeUserAgent(ua)).toBeNull();
  });

  it('gives null for null', () => {
    expect(describeUserAgent(null)).toBeNull();
  });

  it('parses only the first 512 characters', () => {
    // The OS token sits beyond the cut, so only the browser survives: null.
    const padded = (n: number): string =>
      `Mozilla/5.0 ${'x'.repeat(n)} (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0`;
    expect(describeUserAgent(padded(100))).toBe('Firefox 128 on Linux');
    expect(describeUserAgent(padded(600))).toBeNull();
    expect(describeUserAgent(`${FIREFOX_LINUX} ${'x'.repeat(600)}`)).toBe('Firefox 128 on Linux');
  });
});

describe('storedUserAgent', () => {
  it('keeps a normal header unchanged', () => {
    expect(storedUserAgent(FIREFOX_LINUX)).toBe(FIREFOX_LINUX);
  });

  it('cuts to 512 characters', () => {
    expect(storedUserAgent('a'.repeat(5000))).toBe('a'.repeat(512));
  });

  it('gives null for missing, empty or blank headers', () => {
    expect(storedUserAgent(undefined)).toBeNull();
    expect(storedUserAgent('')).toBeNull();
    expect(storedUserAgent(' \t ')).toBeNull();
  });

  it('replaces control characters and lone surrogates', () => {
    expect(storedUserAgent('agent\u0000/1\tx\u007f\u0085y')).toBe('agent /1 x y');
    expect(storedUserAgent('a\ud800b')).toBe('a b');
  });

  it('never splits a surrogate pair at the cut', () => {
    const stored = storedUserAgent(`${'a'.repeat(511)}😀tail`);
    expect(stored).toBe('a'.repeat(511));
  });
});
