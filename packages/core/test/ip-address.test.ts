import { describe, expect, it } from 'vitest';
import { isGloballyRoutable, normalizeIp, parseIp } from '../src/net/ip-address.js';

describe('parseIp / normalizeIp', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['::1', '::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0001:0000:0000:0001', '2001:db8::1:0:0:1'],
    ['fe80::1', 'fe80::1'],
    ['::', '::'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['0:0:0:0:0:ffff:c0a8:101', '192.168.1.1'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    // IPv4-compatible (deprecated) is not IPv4-mapped: it stays IPv6.
    ['::1.2.3.4', '::102:304'],
  ])('accepts %s as %s', (text, canonical) => {
    expect(normalizeIp(text)).toBe(canonical);
  });

  it.each([
    ['127.1', 'inet_aton two-part'],
    ['127.0.1', 'inet_aton three-part'],
    ['0x7f.0.0.1', 'hex octet'],
    ['0x7f000001', 'hex long'],
    ['0177.0.0.1', 'octal octet'],
    ['2130706433', 'decimal long'],
    ['01.2.3.4', 'leading zero'],
    ['1.2.3.04', 'leading zero in last octet'],
    ['256.1.1.1', 'octet out of range'],
    ['1.2.3.4.5', 'five parts'],
    ['1.2.3.4:80', 'port suffix'],
    ['[::1]', 'brackets'],
    ['[::1]:443', 'brackets and port'],
    ['fe80::1%eth0', 'zone id'],
    ['fe80::1%25eth0', 'encoded zone id'],
    ['::ffff:0177.0.0.1', 'octal in mapped tail'],
    ['::ffff:127.1', 'short mapped tail'],
    ['::ffff:0x7f.0.0.1', 'hex in mapped tail'],
    [' 1.2.3.4', 'leading space'],
    ['1.2.3.4 ', 'trailing space'],
    ['', 'empty'],
    ['1::2::3', 'two ::'],
    ['12345::', 'group too long'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['localhost', 'name'],
    ['a'.repeat(1000), 'huge'],
  ])('rejects %s (%s)', (text) => {
    expect(parseIp(text)).toBeNull();
    expect(normalizeIp(text)).toBeNull();
  });

  it('collapses IPv4-mapped IPv6 to an IPv4 object', () => {
    expect(parseIp('::ffff:10.0.0.1')?.kind()).toBe('ipv4');
  });
});

describe('isGloballyRoutable', () => {
  const routable = (text: string): boolean => {
    const ip = parseIp(text);
    if (ip === null) throw new Error(`test address did not parse: ${text}`);
    return isGloballyRoutable(ip);
  };

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '81.2.69.160',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '198.20.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
    '64:ff9b::808:808',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('%s is routable', (text) => {
    expect(routable(text)).toBe(true);
  });

  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['192.0.2.1', 'TEST-NET-1'],
    ['198.51.100.7', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.0.8', 'IETF protocol'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['3fff::1', 'documentation'],
    ['::ffff:10.0.0.1', 'mapped private'],
    ['::ffff:127.0.0.1', 'mapped loopback'],
    ['::ffff:169.254.0.1', 'mapped link-local'],
    ['::ffff:100.64.0.1', 'mapped CGNAT'],
    ['::ffff:192.0.2.1', 'mapped documentation'],
    ['::ffff:224.0.0.1', 'mapped multicast'],
    ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
    ['2002:7f00:0001::1', '6to4 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo of 10.0.0.1'],
    ['::1.2.3.4', 'IPv4-compatible'],
    ['100::1', 'discard'],
  ])('%s is not routable (%s)', (text) => {
    expect(routable(text)).toBe(false);
  });
});
