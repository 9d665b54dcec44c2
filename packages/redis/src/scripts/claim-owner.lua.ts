/**
 * Record which user owns a session id (the pointer findSession follows), unless a
 * pointer is already there. KEYS: owner key. ARGV: user id, TTL ms.
 * Returns the owner now stored: the given user, or whoever claimed the id first.
 */
export const CLAIM_OWNER_LUA = `
local owner = redis.call('GET', KEYS[1])
if owner then return owner end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]
`;
