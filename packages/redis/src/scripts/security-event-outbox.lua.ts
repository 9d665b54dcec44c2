/*
 * The Shared Signals outbox (docs/shared-signals.md), every key under the hash tag `{ssf}` so
 * each script touches one cluster slot:
 *
 *   <prefix>{ssf}:e:<id>        hash: one SET row (batchId, streamId, token, userId?, sessionId?,
 *                               state, attempts, nextAttemptAt, createdAt, lastError?)
 *   <prefix>{ssf}:due           sorted set: ids of held and ready rows, score nextAttemptAt ms
 *   <prefix>{ssf}:b:<batchId>   set: the held ids of one batch, until released or settled
 *   <prefix>{ssf}:dead          sorted set: dead-lettered ids, score createdAt ms
 *
 * KEYS[1] is always the due set; ARGV[1] the `<prefix>{ssf}:` base the other keys are built on.
 */

/** ARGV: base, recoverAfter ms, then 7 per row: id, batchId, streamId, token, userId ('' none), sessionId ('' none), createdAt ms. */
export const HOLD_SECURITY_EVENTS_LUA = `
local due, base, recover = KEYS[1], ARGV[1], ARGV[2]
for i = 3, #ARGV, 7 do
  local id = ARGV[i]
  local key = base .. 'e:' .. id
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'batchId', ARGV[i + 1], 'streamId', ARGV[i + 2], 'token', ARGV[i + 3],
      'state', 'held', 'attempts', 0, 'nextAttemptAt', recover, 'createdAt', ARGV[i + 6])
    if ARGV[i + 4] ~= '' then redis.call('HSET', key, 'userId', ARGV[i + 4]) end
    if ARGV[i + 5] ~= '' then redis.call('HSET', key, 'sessionId', ARGV[i + 5]) end
    redis.call('ZADD', due, recover, id)
    redis.call('SADD', base .. 'b:' .. ARGV[i + 1], id)
  end
end
return 1
`;

/** ARGV: base, batchId, deliver ('1' or '0'), now ms. Returns how many held rows changed. */
export const RELEASE_SECURITY_EVENTS_LUA = `
local due, base, batch, deliver, now = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local batch_key = base .. 'b:' .. batch
local changed = 0
for _, id in ipairs(redis.call('SMEMBERS', batch_key)) do
  local key = base .. 'e:' .. id
  if redis.call('HGET', key, 'state') == 'held' then
    if deliver == '1' then
      redis.call('HSET', key, 'state', 'ready', 'nextAttemptAt', now)
      redis.call('ZADD', due, now, id)
    else
      redis.call('DEL', key)
      redis.call('ZREM', due, id)
    end
    changed = changed + 1
  end
end
redis.call('DEL', batch_key)
return changed
`;

/** ARGV: base, now ms, lease ms, limit. Returns one HGETALL array per claimed row, its id first. */
export const CLAIM_SECURITY_EVENTS_LUA = `
local due, base, now, lease, limit = KEYS[1], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, limit)) do
  local key = base .. 'e:' .. id
  if redis.call('EXISTS', key) == 1 then
    redis.call('ZADD', due, lease, id)
    redis.call('HSET', key, 'nextAttemptAt', lease)
    local row = redis.call('HGETALL', key)
    table.insert(row, 1, id)
    out[#out + 1] = row
  else
    redis.call('ZREM', due, id)
  end
end
return out
`;

/** ARGV: base, id, kind ('remove' | 'retry' | 'dead'), attempts, nextAttemptAt ms, error. Returns 0 for an unknown id. */
export const SETTLE_SECURITY_EVENT_LUA = `
local due, base, id, kind = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local key = base .. 'e:' .. id
local batch = redis.call('HGET', key, 'batchId')
if not batch then return 0 end
redis.call('SREM', base .. 'b:' .. batch, id)
if kind == 'remove' then
  redis.call('DEL', key)
  redis.call('ZREM', due, id)
elseif kind == 'retry' then
  redis.call('HSET', key, 'state', 'ready', 'attempts', ARGV[4], 'nextAttemptAt', ARGV[5], 'lastError', ARGV[6])
  redis.call('ZADD', due, ARGV[5], id)
else
  redis.call('HSET', key, 'state', 'dead', 'attempts', ARGV[4], 'lastError', ARGV[6])
  redis.call('ZREM', due, id)
  redis.call('ZADD', base .. 'dead', redis.call('HGET', key, 'createdAt'), id)
end
return 1
`;
