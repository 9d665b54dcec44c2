import { afterEach, describe, expect, it, vi } from 'vitest';
import { lookupLocation } from '../src/geo/lookup-location.js';
import type { GeolocationProvider, Location } from '../src/geo/location.js';
import type { Logger } from '../src/log/logger.js';

interface LogLine {
  level: string;
  event: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  return {
    lines,
    warn: (event, fields) => lines.push({ level: 'warn', event, fields }),
    error: (event, fields) => lines.push({ level: 'error', event, fields }),
  };
}

function countingProvider(answer: (ip: string, signal: AbortSignal) => ReturnType<GeolocationProvider>) {
  const calls: string[] = [];
  const provider: GeolocationProvider = (ip, signal) => {
    calls.push(ip);
    return answer(ip, signal);
  };
  return { provider, calls };
}

const PUBLIC_IP = '81.2.69.160';

afterEach(() => {
  vi.useRealTimers();
});

describe('lookupLocation', () => {
  it('returns the validated location for a routable address', async () => {
    const { provider, calls } = countingProvider(() => ({ city: 'London', country_code: 'gb' }));
    const logger = recordingLogger();
    await expect(lookupLocation(provider, PUBLIC_IP, { timeoutMs: 1000, logger })).resolves.toEqual({
      city: 'London',
      country_code: 'GB',
    });
    expect(calls).toEqual([PUBLIC_IP]);
    expect(logger.lines).toEqual([]);
  });

  it('passes the normalised address', async () => {
    const { provider, calls } = countingProvider(() => null);
    await lookupLocation(provider, '::ffff:81.2.69.160', { timeoutMs: 1000, logger: recordingLogger() });
    expect(calls).toEqual([PUBLIC_IP]);
  });

  it.each([
    '10.0.0.1',
    '127.0.0.1',
    '192.168.1.1',
    '169.254.1.1',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
    'not-an-ip',
  ])('never calls the provider for %s', async (ip) => {
    const { provider, calls } = countingProvider(() => ({ city: 'Nowhere' }));
    await expect(lookupLocation(provider, ip, { timeoutMs: 1000, logger: recordingLogger() })).resolves.toBeNull();
    expect(calls).toEqual([]);
  });

  it('gives null without a provider or an address', async () => {
    const { provider, calls } = countingProvider(() => ({ city: 'X' }));
    await expect(lookupLocation(null, PUBLIC_IP, { timeoutMs: 1000, logger: recordingLogger() })).resolves.toBeNull();
    await expect(lookupLocation(provider, null, { timeoutMs: 1000, logger: recordingLogger() })).resolves.toBeNull();
    expect(calls).toEqual([]);
  });

  it.each([
    ['rejects', () => Promise.reject(new Error(`lookup of ${PUBLIC_IP} failed`))],
    [
      'throws synchronously',
      () => {
        throw new Error(`lookup of ${PUBLIC_IP} failed`);
      },
    ],
  ])('logs and gives null when the provider %s, without the address', async (_, answer) => {
    const logger = recordingLogger();
    const { provider } = countingProvider(answer as () => Location);
    await expect(lookupLocation(provider, PUBLIC_IP, { timeoutMs: 1000, logger })).resolves.toBeNull();
    expect(logger.lines).toEqual([{ level: 'warn', event: 'geolocation_failed', fields: { reason: 'error' } }]);
    expect(JSON.stringify(logger.lines)).not.toContain(PUBLIC_IP);
  });

  it('gives null at the bound when the provider hangs and ignores the signal', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    let seenSignal: AbortSignal | undefined;
    const { provider } = countingProvider((_ip, signal) => {
      seenSignal = signal;
      return new Promise<Location>(() => {}); // never settles
    });
    let settled = false;
    const result = lookupLocation(provider, PUBLIC_IP, { timeoutMs: 500, logger }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    expect(seenSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBeNull();
    expect(seenSignal?.aborted).toBe(true);
    expect(logger.lines).toEqual([{ level: 'warn', event: 'geolocation_failed', fields: { reason: 'timeout' } }]);
  });

  it('drops bad coordinates but keeps the rest', async () => {
    const { provider } = countingProvider(() => ({ city: 'Lyon', latitude: 145.7, longitude: Number.NaN }));
    await expect(lookupLocation(provider, PUBLIC_IP, { timeoutMs: 1000, logger: recordingLogger() })).resolves.toEqual({
      city: 'Lyon',
    });
  });

  it('logs an answer with nothing usable', async () => {
    const logger = recordingLogger();
    const { provider } = countingProvider(() => ({ latitude: 999 }) as Location);
    await expect(lookupLocation(provider, PUBLIC_IP, { timeoutMs: 1000, logger })).resolves.toBeNull();
    expect(logger.lines).toEqual([{ level: 'warn', event: 'geolocation_failed', fields: { reason: 'invalid_result' } }]);
  });
});
