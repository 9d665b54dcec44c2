/**
 * Append to activity lists, all of one user (one slot), in one script (so atomic). KEYS: the
 * lists. ARGV: the per-session bound, then per key: the entry count, the latest expiry (ms) of
 * its entries, and the entries (JSON). Each list is pushed to, trimmed to its newest `max`, and
 * set to expire with its newest entry (never sooner than it already would).
 */
export const APPEND_ACTIVITY_LUA = `
local max = tonumber(ARGV[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local pos = 2
for _, key in ipairs(KEYS) do
  local count, expire_at = tonumber(ARGV[pos]), tonumber(ARGV[pos + 1])
  pos = pos + 2
  for _ = 1, count do
    redis.call('RPUSH', key, ARGV[pos])
    pos = pos + 1
  end
  redis.call('LTRIM', key, -max, -1)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or now + ttl < expire_at then redis.call('PEXPIREAT', key, expire_at) end
end
return 1
`;

/** Read activity lists of one user (one slot) in one script. KEYS: the lists. Returns one array of JSON entries per key. */
export const LIST_ACTIVITY_LUA = `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('LRANGE', key, 0, -1) end
return out
`;

/**
 * The purge's part of the activity: drop the entries at the head of each list (the oldest)
 * whose expiry ("x", ms) is before ARGV[1]. KEYS: lists of one user. Returns how many went.
 */
export const TRIM_ACTIVITY_LUA = `
local now = tonumber(ARGV[1])
local removed = 0
for _, key in ipairs(KEYS) do
  while true do
    local head = redis.call('LINDEX', key, 0)
    if not head then break end
    local ok, entry = pcall(cjson.decode, head)
    if ok and type(entry) == 'table' and tonumber(entry.x) ~= nil and tonumber(entry.x) >= now then break end
    redis.call('LPOP', key)
    removed = removed + 1
  end
end
return removed
`;
