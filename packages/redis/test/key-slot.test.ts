import { describe, expect, it } from 'vitest';
import { keySlot } from '../src/key-slot.js';

// The vectors of the Redis Cluster specification (cluster-spec, "Keys distribution model").
describe('keySlot', () => {
  it('is CRC16/XMODEM mod 16384: "123456789" is slot 12739', () => {
    expect(keySlot('123456789')).toBe(12739);
  });

  it('hashes only the first non-empty hash tag', () => {
    expect(keySlot('{user1000}.following')).toBe(keySlot('{user1000}.followers'));
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('foo{}{bar}')).not.toBe(keySlot('bar'));
    expect(keySlot('foo{{bar}}zap')).toBe(keySlot('{bar'));
    expect(keySlot('foo{bar}{zap}')).toBe(keySlot('bar'));
  });

  it('hashes UTF-8 bytes, as the server does', () => {
    expect(keySlot('{u:é}:s:1')).toBe(keySlot('u:é'));
    expect(keySlot('é')).not.toBe(keySlot('e'));
  });
});
