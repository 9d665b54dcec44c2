import { LUA_HELPERS } from './revoke.lua.js';

/**
 * The refresh compare-and-swap. KEYS: session hash, user's active index.
 * ARGV: userId, presented jti, next jti, security stamp, now ms, retention ms,
 * idle cutoff ms ('' when the idle timeout is off).
 * Outcomes in the port's order: missing, wrong_user, expired, idle (revoked),
 * security_changed (revoked), reused (revoked), consumed (returns the hash after
 * the swap as { 'consumed', field, value, ... }).
 */
export const ROTATE_REFRESH_LUA = `${LUA_HELPERS}
local key, index = KEYS[1], KEYS[2]
local user, presented, nextJti, stamp, now, retention = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local idleCutoff = ARGV[7]
local f = redis.call('HMGET', key, 'id', 'userId', 'securityStamp', 'refreshJti', 'lastActivityAt', 'createdAt')
if not f[1] then return { 'missing' } end
if f[2] ~= user then return { 'wrong_user' } end
if state_of(key, now) ~= 'active' then return { 'expired' } end
if idleCutoff and idleCutoff ~= '' and tonumber(f[5] or f[6]) <= tonumber(idleCutoff) then
  revoke(key, index, f[1], now, retention)
  return { 'idle' }
end
if f[3] ~= stamp then
  revoke(key, index, f[1], now, retention)
  return { 'security_changed' }
end
if f[4] ~= presented then
  revoke(key, index, f[1], now, retention)
  return { 'reused' }
end
redis.call('HSET', key, 'refreshJti', nextJti, 'lastActivityAt', now)
local reply = { 'consumed' }
for _, item in ipairs(redis.call('HGETALL', key)) do reply[#reply + 1] = item end
return reply
`;
