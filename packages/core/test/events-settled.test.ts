import { describe, expect, it } from 'vitest';
import { EventBus } from '../src/events/event-bus.js';

const silent = { warn: () => {}, error: () => {} };

describe('EventBus.settled: what a Workers adapter hands to ctx.waitUntil', () => {
  it('resolves only after every handler of every event emitted so far has finished', async () => {
    const bus = new EventBus(silent);
    const finished: string[] = [];
    bus.on('refresh', async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished.push(event.sessionId);
    });
    bus.emit('refresh', () => ({ userId: 'u', sessionId: 'a' }));
    bus.emit('refresh', () => ({ userId: 'u', sessionId: 'b' }));
    expect(finished).toEqual([]);
    await bus.settled();
    expect(finished).toEqual(['a', 'b']);
  });

  it('resolves at once without pending events, and after a failing handler too', async () => {
    const bus = new EventBus(silent);
    await bus.settled();
    bus.on('login_failed', () => {
      throw new Error('host handler broke');
    });
    bus.emit('login_failed', () => ({ username: 'x', reason: 'invalid_credentials' }) as never);
    await expect(bus.settled()).resolves.toBeUndefined();
  });
});
