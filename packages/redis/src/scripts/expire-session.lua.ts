import { LUA_HELPERS } from './revoke.lua.js';

/**
 * Revoke one active session of a user. KEYS: session hash, user's active index.
 * ARGV: userId, now ms, retention ms. Returns 1 when it revoked, else 0.
 */
export const EXPIRE_SESSION_LUA = `${LUA_HELPERS}
local key, index = KEYS[1], KEYS[2]
local user, now, retention = ARGV[1], ARGV[2], ARGV[3]
local f = redis.call('HMGET', key, 'id', 'userId')
if not f[1] or f[2] ~= user then return 0 end
if state_of(key, now) ~= 'active' then return 0 end
revoke(key, index, f[1], now, retention)
return 1
`;

/**
 * Revoke every active session of a user. KEYS: user's active index.
 * ARGV: session key base, now ms, retention ms, the id to keep ('' for none).
 * Returns how many it revoked. Sessions past their natural expiry stay indexed (they
 * are not active; purge or the index's TTL removes them); dangling and revoked ids are dropped.
 */
export const EXPIRE_ALL_LUA = `${LUA_HELPERS}
local index = KEYS[1]
local base, now, retention, keep = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local revoked = 0
for _, id in ipairs(redis.call('ZRANGE', index, 0, -1)) do
  local state = state_of(base .. id, now)
  if id == keep then
    -- the kept session stays exactly as it is
  elseif state == 'active' then
    revoke(base .. id, index, id, now, retention)
    revoked = revoked + 1
  elseif state ~= 'ended' then
    redis.call('ZREM', index, id)
  end
end
return revoked
`;

/**
 * Record activity. KEYS: session hash. ARGV: now ms. Never touches a revoked or
 * missing session and never moves `lastActivityAt` backwards. Returns 1 when written,
 * 0 when not, -1 when there is no such hash.
 */
export const TOUCH_SESSION_LUA = `
local f = redis.call('HMGET', KEYS[1], 'id', 'expiredAt', 'lastActivityAt')
if not f[1] then return -1 end
if f[2] then return 0 end
if f[3] and tonumber(f[3]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'lastActivityAt', ARGV[1])
return 1
`;
