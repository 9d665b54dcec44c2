import { expect } from 'vitest';
import type { TestApp } from './conformance-app.js';
import type { SuiteKit } from './suite-kit.js';

const TRUST_LOOPBACK = { trustedProxyCidrs: ['127.0.0.1/32'] };

/** The ip_address the listing shows for a login sent with these headers. */
async function recordedIp(app: TestApp, headers: Record<string, string>): Promise<unknown> {
  for (const value of Object.values(headers)) app.secrets.add(value);
  const session = await app.login('alice', { headers });
  const list = await session.client.get(app.at('/sessions/'), { bearer: session.access });
  const mine = (list.body as Array<{ id: string; ip_address: unknown }>).find((entry) => entry.id === session.sessionId);
  if (mine === undefined) throw new Error(`session ${session.sessionId} not listed: ${list.text}`);
  return mine.ip_address;
}

/** Client IP recording at login: the peer unless a trusted proxy speaks, validated right to left. */
export function clientIpSuite(kit: SuiteKit): void {
  kit.test('client-ip/peer', 'without trusted proxies the peer is recorded and X-Forwarded-For ignored', async () => {
    const app = await kit.start();
    expect(await recordedIp(app, {})).toBe('127.0.0.1');
    expect(await recordedIp(app, { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
    expect(await recordedIp(app, { 'x-real-ip': '203.0.113.9', forwarded: 'for=203.0.113.9' })).toBe('127.0.0.1');
  });

  kit.test('client-ip/untrusted-peer', 'a trusted range that does not hold the peer changes nothing', async () => {
    const app = await kit.start({ trustedProxyCidrs: ['10.0.0.0/8'] });
    expect(await recordedIp(app, { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
  });

  kit.test('client-ip/trusted-proxy', 'behind a trusted proxy the client from X-Forwarded-For is recorded', async () => {
    const app = await kit.start(TRUST_LOOPBACK);
    expect(await recordedIp(app, { 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await recordedIp(app, { 'x-forwarded-for': '2001:db8::7' })).toBe('2001:db8::7');
    expect(await recordedIp(app, { 'x-forwarded-for': '::ffff:203.0.113.10' })).toBe('203.0.113.10');
  });

  kit.test('client-ip/right-to-left', 'the chain is read right to left, skipping trusted proxies only', async () => {
    const app = await kit.start({ trustedProxyCidrs: ['127.0.0.1/32', '10.0.0.0/8'] });
    expect(await recordedIp(app, { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' })).toBe('203.0.113.9');
    expect(await recordedIp(app, { 'x-forwarded-for': '198.51.100.7, 10.1.2.3' })).toBe('198.51.100.7');
    expect(await recordedIp(app, { 'x-forwarded-for': '198.51.100.7,10.1.2.3 , 10.0.0.1' })).toBe('198.51.100.7');
  });

  kit.test('client-ip/malformed', 'one malformed hop, too many hops or too long a header: the peer is recorded', async () => {
    const app = await kit.start(TRUST_LOOPBACK);
    const chains = [
      '203.0.113.9, not-an-ip',
      'not-an-ip, 203.0.113.9',
      '127.1',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '2130706433',
      'fe80::1%eth0',
      '203.0.113.9,,198.51.100.7',
      Array.from({ length: 11 }, (_, i) => `198.51.100.${i + 1}`).join(', '),
      `${'198.51.100.1, '.repeat(200)}203.0.113.9`,
    ];
    for (const chain of chains) {
      expect(await recordedIp(app, { 'x-forwarded-for': chain }), chain.slice(0, 40)).toBe('127.0.0.1');
    }
  });

  kit.test('client-ip/not-persisted', 'persistClientIp false stores no IP', async () => {
    const app = await kit.start({ persistClientIp: false });
    expect(await recordedIp(app, {})).toBeNull();
  });
}
