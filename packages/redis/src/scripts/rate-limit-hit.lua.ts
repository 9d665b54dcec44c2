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

/**
 * Several hits in order, as RATE_LIMIT_HIT_LUA each, stopping after the first whose count is
 * above its limit (the keys after it are not touched). KEYS: counters (one server: any slots).
 * ARGV: window ms and limit, per key. Returns { count, ms until reset } per hit made.
 */
export const RATE_LIMIT_HIT_MANY_LUA = `
local results = {}
for i, key in ipairs(KEYS) do
  local window = ARGV[2 * i - 1]
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, window) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = tonumber(window)
  end
  results[i] = { count, ttl }
  if count > tonumber(ARGV[2 * i]) then break end
end
return results
`;
