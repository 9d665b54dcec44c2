import { LUA_HELPERS } from './revoke.lua.js';

/**
 * Name one active session of a user. KEYS: session hash (under the presented user's tag, so
 * another user's session is simply not there). ARGV: userId, name, now ms. Returns 1 when it
 * set the name, else 0 (missing, someone else's, revoked or past its natural end).
 */
export const RENAME_SESSION_LUA = `${LUA_HELPERS}
local key = KEYS[1]
local user, name, now = ARGV[1], ARGV[2], ARGV[3]
local f = redis.call('HMGET', key, 'id', 'userId')
if not f[1] or f[2] ~= user then return 0 end
if state_of(key, now) ~= 'active' then return 0 end
redis.call('HSET', key, 'name', name)
return 1
`;
