/**
 * Delete the given sessions of one user when they were revoked before now or ended
 * naturally before now. KEYS: user's active index, user's index of all sessions.
 * ARGV: session key base, now ms, then session ids. Returns { deleted ids, ids
 * whose hash was already gone }, so the caller can clean the owner pointers and the
 * global index.
 */
export const PURGE_USER_LUA = `
local index, all = KEYS[1], KEYS[2]
local base, now = ARGV[1], tonumber(ARGV[2])
local deleted, gone = {}, {}
for i = 3, #ARGV do
  local id = ARGV[i]
  local f = redis.call('HMGET', base .. id, 'expiresAt', 'expiredAt')
  if not f[1] then
    gone[#gone + 1] = id
    redis.call('ZREM', index, id)
    redis.call('ZREM', all, id)
  elseif (f[2] and tonumber(f[2]) < now) or tonumber(f[1]) < now then
    redis.call('DEL', base .. id)
    redis.call('ZREM', index, id)
    redis.call('ZREM', all, id)
    deleted[#deleted + 1] = id
  end
end
return { deleted, gone }
`;
