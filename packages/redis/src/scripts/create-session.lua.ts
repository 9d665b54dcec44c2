import { LUA_HELPERS } from './revoke.lua.js';

/**
 * Insert a session and enforce the per-user cap in the same step.
 * KEYS: session hash, user's active index, user's index of all sessions.
 * ARGV: id, createdAt ms, maxActive, session TTL ms, retention ms, session key base,
 *       then the hash's field/value pairs.
 * The new session joins the index first, so Redis orders it among the others
 * (createdAt, then id, byte-wise); the oldest active sessions beyond maxActive are
 * then revoked at createdAt. Under concurrent logins the newcomer itself can be the
 * oldest and is then stored already revoked: the newest maxActive always win.
 * Dangling and revoked ids met in the index are dropped on the way.
 * Returns { revoked count, 1 when the newcomer itself was revoked else 0 };
 * errors on a duplicate id.
 */
/** The insert-and-cap step as a Lua function of its own keys and arguments (both scripts below run it). */
const CREATE_SESSION_FUNCTION = `
local function create_session(KEYS, ARGV)
  local key, index, all = KEYS[1], KEYS[2], KEYS[3]
  local id, now, max, ttl, retention, base = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
  if redis.call('EXISTS', key) == 1 then
    return redis.error_reply('SESSAUTH_DUPLICATE session id already exists')
  end
  redis.call('HSET', key, unpack(ARGV, 7))
  redis.call('PEXPIRE', key, ttl)
  -- The indexes live at least as long as their newest session's hash.
  for _, set in ipairs({ index, all }) do
    redis.call('ZADD', set, now, id)
    if redis.call('PTTL', set) < tonumber(ttl) then redis.call('PEXPIRE', set, ttl) end
  end

  local active = {}
  for _, other in ipairs(redis.call('ZRANGE', index, 0, -1)) do
    local state = state_of(base .. other, now)
    if state == 'active' then
      active[#active + 1] = other
    elseif state ~= 'ended' then
      redis.call('ZREM', index, other)
    end
  end
  if max < 1 then max = 1 end
  local revoked, self = 0, 0
  for i = 1, #active - max do
    revoke(base .. active[i], index, active[i], now, retention)
    revoked = revoked + 1
    if active[i] == id then self = 1 end
  end
  return { revoked, self }
end
`;

export const CREATE_SESSION_LUA = `${LUA_HELPERS}${CREATE_SESSION_FUNCTION}
return create_session(KEYS, ARGV)
`;

/**
 * Login's whole write in one script, for a single server (not a cluster, where these keys live
 * in different slots): the owner pointer (as `claimOwner`), the insert-and-cap step, then the
 * admin index entry, in that order and atomically, so one round trip does what the three of
 * the cluster path do. KEYS: owner key, session hash, user's active index, user's index of all
 * sessions, the admin index. ARGV: user id, owner TTL ms, then `createSession`'s arguments.
 * Errors with SESSAUTH_OWNER when another user owns the id (nothing written then).
 */
export const CREATE_SESSION_ONE_TRIP_LUA = `${LUA_HELPERS}${CREATE_SESSION_FUNCTION}
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then
  return redis.error_reply('SESSAUTH_OWNER session id already in use')
end
local reply = create_session({ KEYS[2], KEYS[3], KEYS[4] }, { unpack(ARGV, 3) })
if reply.err then return reply end
if not owner then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
redis.call('ZADD', KEYS[5], 'NX', ARGV[4], ARGV[3])
return reply
`;
