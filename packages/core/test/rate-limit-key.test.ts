import { describe, expect, it } from 'vitest';
import { clientRateKey } from '../src/rate-limit/rate-limit-key.js';

describe('clientRateKey', () => {
  it('keys IPv4 clients by address', () => {
    expect(clientRateKey('198.51.100.7', 64)).toBe('198.51.100.7');
    expect(clientRateKey('198.51.100.7', 64)).not.toBe(clientRateKey('198.51.100.8', 64));
  });

  it('keys two IPv6 addresses of one /64 alike', () => {
    const a = clientRateKey('2001:db8:1:2:aaaa::1', 64);
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientRateKey('2001:db8:1:2:ffff:ffff:ffff:ffff', 64)).toBe(a);
    expect(clientRateKey('2001:db8:1:3::1', 64)).not.toBe(a);
  });

  it('honours other prefixes, including ones inside a 16-bit group', () => {
    expect(clientRateKey('2001:db8:1:2::1', 48)).toBe('2001:db8:1::/48');
    expect(clientRateKey('2001:db8:12ff::1', 36)).toBe('2001:db8:1000::/36');
    expect(clientRateKey('2001:db8::1', 128)).toBe('2001:db8::1/128');
  });

  it('defaults to /64', () => {
    expect(clientRateKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
  });

  it('collapses IPv4-mapped addresses to IPv4', () => {
    expect(clientRateKey('::ffff:198.51.100.7', 64)).toBe('198.51.100.7');
  });

  it('puts unknown and unparseable clients in one bucket', () => {
    expect(clientRateKey(null, 64)).toBe('unknown');
    expect(clientRateKey('garbage', 64)).toBe('unknown');
  });

  it('rejects an invalid prefix', () => {
    expect(() => clientRateKey('2001:db8::1', 0)).toThrow(Error);
    expect(() => clientRateKey('2001:db8::1', 129)).toThrow(Error);
    expect(() => clientRateKey('2001:db8::1', 64.5)).toThrow(Error);
  });
});
