import { LUA_HELPERS } from './revoke.lua.js';

/**
 * Binds one active, unbound session to a browser's DBSC key, in one script (so of two racing
 * registrations exactly one writes). KEYS: session hash (under the owner's tag). ARGV: userId,
 * now ms, the public JWK as JSON. Returns 1 when written, else 0 (missing, someone else's,
 * revoked or over, or already bound).
 */
export const BIND_DEVICE_KEY_LUA = `${LUA_HELPERS}
local key = KEYS[1]
local user, now, jwk = ARGV[1], ARGV[2], ARGV[3]
local f = redis.call('HMGET', key, 'id', 'userId', 'deviceBoundKey')
if not f[1] or f[2] ~= user or f[3] then return 0 end
if state_of(key, now) ~= 'active' then return 0 end
redis.call('HSET', key, 'deviceBoundKey', jwk)
return 1
`;
