/**
 * One hit of a fixed window. KEYS: counter. ARGV: window ms.
 * INCR, and PEXPIRE on the first hit of the window; a counter found without a TTL
 * (written by something else) gets one, so a key can never lock a client out forever.
 * Returns { count, milliseconds until the window resets }.
 */
export const RATE_LIMIT_HIT_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;
