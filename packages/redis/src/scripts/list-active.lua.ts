import { LUA_HELPERS } from './revoke.lua.js';

/**
 * A user's active sessions at now, newest first (createdAt, then id, descending),
 * in one round trip. KEYS: user's active index. ARGV: session key base, now ms.
 * Returns one flat HGETALL reply per session. Ids whose hash is gone (TTL) or that
 * are revoked are removed from the index here, so it never keeps dangling ids.
 */
export const LIST_ACTIVE_LUA = `${LUA_HELPERS}
local index = KEYS[1]
local base, now = ARGV[1], ARGV[2]
local sessions = {}
for _, id in ipairs(redis.call('ZREVRANGE', index, 0, -1)) do
  local state = state_of(base .. id, now)
  if state == 'active' then
    sessions[#sessions + 1] = redis.call('HGETALL', base .. id)
  elseif state ~= 'ended' then
    redis.call('ZREM', index, id)
  end
end
return sessions
`;
