import { LUA_HELPERS } from './revoke.lua.js';

/**
 * A step-up on one active session of a user, in one script (so atomic: no reader sees the new
 * authTime with the old amr). KEYS: session hash (under the presented user's tag, so another
 * user's session is simply not there). ARGV: userId, now ms, authTime ms, amr (JSON), acr
 * ('' for none). Returns 1 when written, else 0 (missing, someone else's, revoked or over).
 */
export const RECORD_STEP_UP_LUA = `${LUA_HELPERS}
local key = KEYS[1]
local user, now, auth_time, amr, acr = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local f = redis.call('HMGET', key, 'id', 'userId')
if not f[1] or f[2] ~= user then return 0 end
if state_of(key, now) ~= 'active' then return 0 end
redis.call('HSET', key, 'authTime', auth_time, 'amr', amr)
if acr == '' then redis.call('HDEL', key, 'acr') else redis.call('HSET', key, 'acr', acr) end
return 1
`;
