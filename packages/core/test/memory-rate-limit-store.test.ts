import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../src/rate-limit/memory-rate-limit-store.js';

const at = (seconds: number): Date => new Date(Date.UTC(2025, 0, 1) + seconds * 1000);

describe('MemoryRateLimitStore', () => {
  it('counts hits in a fixed window and reports its end', async () => {
    const store = new MemoryRateLimitStore();
    await expect(store.hit('k', 60, at(0))).resolves.toEqual({ count: 1, resetAt: at(60) });
    await expect(store.hit('k', 60, at(10))).resolves.toEqual({ count: 2, resetAt: at(60) });
    await expect(store.hit('k', 60, at(59.999))).resolves.toEqual({ count: 3, resetAt: at(60) });
  });

  it('starts a new window once the old one ends', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('k', 60, at(0));
    await store.hit('k', 60, at(1));
    await expect(store.hit('k', 60, at(60))).resolves.toEqual({ count: 1, resetAt: at(120) });
  });

  it('keeps keys apart', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('a', 60, at(0));
    await expect(store.hit('b', 60, at(0))).resolves.toMatchObject({ count: 1 });
  });

  it('never loses an increment under concurrent hits', async () => {
    const store = new MemoryRateLimitStore();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('k', 60, at(0))));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('prunes ended windows', async () => {
    const store = new MemoryRateLimitStore();
    for (let i = 0; i < 100; i++) await store.hit(`k${i}`, 60, at(0));
    expect(store.size).toBe(100);
    await store.hit('late', 60, at(61));
    expect(store.size).toBe(1);
  });

  it('stays within maxKeys by dropping the oldest windows', async () => {
    const store = new MemoryRateLimitStore({ maxKeys: 10 });
    for (let i = 0; i < 25; i++) await store.hit(`k${i}`, 60, at(0));
    expect(store.size).toBe(10);
    // The newest keys kept their counts; the oldest start over.
    await expect(store.hit('k24', 60, at(1))).resolves.toMatchObject({ count: 2 });
    await expect(store.hit('k0', 60, at(1))).resolves.toMatchObject({ count: 1 });
  });

  it('rejects a bad maxKeys', () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(Error);
  });
});
