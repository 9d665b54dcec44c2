import { describe, expect, it } from 'vitest';
import { parseCidrs } from '../src/net/parse-cidrs.js';
import { resolveClientIp, type ResolveClientIpInput } from '../src/net/resolve-client-ip.js';

const base: ResolveClientIpInput = {
  peerAddress: '10.0.0.2',
  forwardedFor: undefined,
  trustedProxies: parseCidrs(['10.0.0.0/8', '2001:db8:ffff::/48']),
  maxHeaderLength: 2048,
  maxHops: 10,
};
const resolve = (overrides: Partial<ResolveClientIpInput>): string | null => resolveClientIp({ ...base, ...overrides });

describe('resolveClientIp', () => {
  it('uses the peer when there is no X-Forwarded-For', () => {
    expect(resolve({})).toBe('10.0.0.2');
    expect(resolve({ forwardedFor: [] })).toBe('10.0.0.2');
  });

  it('ignores X-Forwarded-For from an untrusted peer', () => {
    expect(resolve({ peerAddress: '203.0.113.5', forwardedFor: ['198.51.100.1'] })).toBe('203.0.113.5');
  });

  it('takes the first untrusted hop scanning right to left', () => {
    expect(resolve({ forwardedFor: ['1.1.1.1, 198.51.100.1, 10.0.0.9, 10.0.0.3'] })).toBe('198.51.100.1');
  });

  it('does not let a client spoof the left-most entry', () => {
    expect(resolve({ forwardedFor: ['6.6.6.6, 198.51.100.1'] })).toBe('198.51.100.1');
  });

  it('joins repeated headers in order', () => {
    expect(resolve({ forwardedFor: ['198.51.100.1', '10.0.0.7'] })).toBe('198.51.100.1');
    expect(resolve({ forwardedFor: ['10.0.0.7', '198.51.100.1'] })).toBe('198.51.100.1');
  });

  it('falls back to the direct peer when every hop is trusted (SPEC: no hop names a client)', () => {
    expect(resolve({ forwardedFor: ['10.0.0.8, 10.0.0.9'] })).toBe('10.0.0.2');
    expect(resolve({ forwardedFor: ['10.0.0.8'] })).toBe('10.0.0.2');
  });

  it.each([
    ['198.51.100.1:4711', 'port suffix'],
    ['[2001:db8::1]:443', 'bracketed IPv6 with port'],
    ['198.51.100.1,,10.0.0.3', 'empty item'],
    ['198.51.100.1,', 'trailing comma'],
    ['fe80::1%eth0', 'zone id'],
    ['127.1', 'inet_aton short form'],
    ['0x7f.0.0.1', 'inet_aton hex'],
    ['unknown', 'obfuscated'],
    ['198.51.100.1\n', 'newline'],
  ])('falls back to the peer on a malformed hop: %j (%s)', (header) => {
    expect(resolve({ forwardedFor: [header] })).toBe('10.0.0.2');
  });

  it('falls back to the peer when one of several headers is malformed', () => {
    expect(resolve({ forwardedFor: ['198.51.100.1', 'garbage'] })).toBe('10.0.0.2');
  });

  it('falls back to the peer beyond the hop limit', () => {
    const hops = Array.from({ length: 4 }, (_, i) => `198.51.100.${i + 1}`);
    expect(resolve({ forwardedFor: [hops.join(',')], maxHops: 4 })).toBe('198.51.100.4');
    expect(resolve({ forwardedFor: [hops.join(',')], maxHops: 3 })).toBe('10.0.0.2');
  });

  it('falls back to the peer beyond the length limit', () => {
    const header = '198.51.100.1, 198.51.100.2';
    expect(resolve({ forwardedFor: [header], maxHeaderLength: header.length })).toBe('198.51.100.2');
    expect(resolve({ forwardedFor: [header], maxHeaderLength: header.length - 1 })).toBe('10.0.0.2');
  });

  it('handles IPv6 peers and hops, normalised', () => {
    expect(resolve({ peerAddress: '2001:DB8:FFFF::1', forwardedFor: ['2001:0db8:0001:0000::0005'] })).toBe('2001:db8:1::5');
  });

  it('collapses IPv4-mapped peers and hops', () => {
    expect(resolve({ peerAddress: '::ffff:10.0.0.2', forwardedFor: ['::ffff:198.51.100.1'] })).toBe('198.51.100.1');
    expect(resolve({ peerAddress: '::ffff:203.0.113.5', forwardedFor: ['198.51.100.1'] })).toBe('203.0.113.5');
  });

  it('gives null for a missing or unparseable peer', () => {
    expect(resolve({ peerAddress: null, forwardedFor: ['198.51.100.1'] })).toBeNull();
    expect(resolve({ peerAddress: 'not-an-ip', forwardedFor: ['198.51.100.1'] })).toBeNull();
  });
});
