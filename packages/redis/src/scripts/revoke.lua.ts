/**
 * Lua helpers shared by the session scripts (prepended to each one's source).
 * `revoke` ends a session: it sets `expiredAt`, drops the id from the user's index
 * of active sessions and shortens the hash's TTL to the retention window, so the
 * admin listing still shows the revoked row for a while. Every key it touches
 * carries the user's hash tag: one slot.
 */
export const LUA_HELPERS = `
local function revoke(key, index, id, now, retention)
  redis.call('HSET', key, 'expiredAt', now)
  redis.call('ZREM', index, id)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or ttl > tonumber(retention) then
    redis.call('PEXPIRE', key, retention)
  end
end

-- 'active' | 'revoked' | 'ended' (past its natural expiry) | 'missing'
local function state_of(key, now)
  local f = redis.call('HMGET', key, 'expiresAt', 'expiredAt')
  if not f[1] then return 'missing' end
  if f[2] then return 'revoked' end
  if tonumber(f[1]) <= tonumber(now) then return 'ended' end
  return 'active'
end
`;
