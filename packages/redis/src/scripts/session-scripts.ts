import { luaScript } from '../script-runner.js';
import { APPEND_ACTIVITY_LUA, LIST_ACTIVITY_LUA, TRIM_ACTIVITY_LUA } from './activity.lua.js';
import { CLAIM_OWNER_LUA } from './claim-owner.lua.js';
import { CREATE_SESSION_LUA, CREATE_SESSION_ONE_TRIP_LUA } from './create-session.lua.js';
import { EXPIRE_ALL_LUA, EXPIRE_SESSION_LUA, TOUCH_SESSION_LUA } from './expire-session.lua.js';
import { LIST_ACTIVE_LUA } from './list-active.lua.js';
import { PURGE_USER_LUA } from './purge-user.lua.js';
import { RATE_LIMIT_HIT_LUA, RATE_LIMIT_HIT_MANY_LUA } from './rate-limit-hit.lua.js';
import { RECORD_STEP_UP_LUA } from './record-step-up.lua.js';
import { BIND_DEVICE_KEY_LUA } from './bind-device-key.lua.js';
import { RENAME_SESSION_LUA } from './rename-session.lua.js';
import { ROTATE_REFRESH_LUA } from './rotate-refresh.lua.js';
import {
  CLAIM_SECURITY_EVENTS_LUA,
  HOLD_SECURITY_EVENTS_LUA,
  RELEASE_SECURITY_EVENTS_LUA,
  SETTLE_SECURITY_EVENT_LUA,
} from './security-event-outbox.lua.js';

/** Every script with its key count; hashed once at load. */
export const SCRIPTS = {
  claimOwner: luaScript(CLAIM_OWNER_LUA, 1),
  createSession: luaScript(CREATE_SESSION_LUA, 3),
  createSessionOneTrip: luaScript(CREATE_SESSION_ONE_TRIP_LUA, 5),
  rotateRefresh: luaScript(ROTATE_REFRESH_LUA, 2),
  expireSession: luaScript(EXPIRE_SESSION_LUA, 2),
  expireAll: luaScript(EXPIRE_ALL_LUA, 1),
  touchSession: luaScript(TOUCH_SESSION_LUA, 1),
  renameSession: luaScript(RENAME_SESSION_LUA, 1),
  recordStepUp: luaScript(RECORD_STEP_UP_LUA, 1),
  bindDeviceKey: luaScript(BIND_DEVICE_KEY_LUA, 1),
  listActive: luaScript(LIST_ACTIVE_LUA, 1),
  purgeUser: luaScript(PURGE_USER_LUA, 2),
  rateLimitHit: luaScript(RATE_LIMIT_HIT_LUA, 1),
  rateLimitHitMany: luaScript(RATE_LIMIT_HIT_MANY_LUA, 'any'),
  appendActivity: luaScript(APPEND_ACTIVITY_LUA, 'any'),
  listActivity: luaScript(LIST_ACTIVITY_LUA, 'any'),
  trimActivity: luaScript(TRIM_ACTIVITY_LUA, 'any'),
  holdSecurityEvents: luaScript(HOLD_SECURITY_EVENTS_LUA, 1),
  releaseSecurityEvents: luaScript(RELEASE_SECURITY_EVENTS_LUA, 1),
  claimSecurityEvents: luaScript(CLAIM_SECURITY_EVENTS_LUA, 1),
  settleSecurityEvent: luaScript(SETTLE_SECURITY_EVENT_LUA, 1),
} as const;
