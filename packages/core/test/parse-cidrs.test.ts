import { describe, expect, it } from 'vitest';
import { parseIp } from '../src/net/ip-address.js';
import { cidrListContains, parseCidrs } from '../src/net/parse-cidrs.js';

const contains = (cidrs: string[], ip: string): boolean => {
  const parsed = parseIp(ip);
  if (parsed === null) throw new Error(`test address did not parse: ${ip}`);
  return cidrListContains(parseCidrs(cidrs), parsed);
};

describe('parseCidrs', () => {
  it('treats a bare address as /32 or /128', () => {
    expect(parseCidrs(['10.0.0.1', '2001:db8::1']).map((r) => r.prefix)).toEqual([32, 128]);
    expect(contains(['10.0.0.1'], '10.0.0.1')).toBe(true);
    expect(contains(['10.0.0.1'], '10.0.0.2')).toBe(false);
    expect(contains(['2001:db8::1'], '2001:db8::2')).toBe(false);
  });

  it('matches addresses inside a range only', () => {
    expect(contains(['10.0.0.0/8'], '10.255.1.2')).toBe(true);
    expect(contains(['10.0.0.0/8'], '11.0.0.1')).toBe(false);
    expect(contains(['2001:db8::/32'], '2001:db8:ffff::1')).toBe(true);
    expect(contains(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(contains(['0.0.0.0/0'], '8.8.8.8')).toBe(true);
  });

  it('collapses IPv4-mapped entries and peers to IPv4', () => {
    expect(contains(['::ffff:10.0.0.0/104'], '10.1.2.3')).toBe(true);
    expect(contains(['::ffff:10.0.0.0/104'], '11.1.2.3')).toBe(false);
    expect(contains(['10.0.0.0/8'], '::ffff:10.1.2.3')).toBe(true);
    expect(contains(['::ffff:10.0.0.5'], '10.0.0.5')).toBe(true);
  });

  it('never matches across address families', () => {
    expect(contains(['::/0'], '10.0.0.1')).toBe(false);
    expect(contains(['0.0.0.0/0'], '2001:db8::1')).toBe(false);
  });

  it('ignores surrounding whitespace', () => {
    expect(contains([' 192.168.0.0/16 '], '192.168.5.5')).toBe(true);
  });

  it.each([
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/08',
    '10.0.0.0/-1',
    '10.0.0.0/x',
    '10/8',
    '127.1',
    '0x0a.0.0.0/8',
    'fe80::1%eth0/64',
    '::ffff:10.0.0.0/64',
    '',
    'proxy.local',
  ])('throws on %j', (entry) => {
    expect(() => parseCidrs(['10.0.0.0/8', entry])).toThrow(Error);
  });
});
