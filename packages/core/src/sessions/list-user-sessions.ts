import type { SessionServices } from './session-services.js';
import type { SessionRecord } from '../store/store-port.js';
import { isIdle } from './session-state.js';

/**
 * The user's sessions as `GET {prefix}/sessions/` lists them: active ones, newest first,
 * idle ones left out (the guard refuses them). Shared by the route and `auth.listSessions`.
 */
export async function listUserSessions<U>(services: SessionServices<U>, userId: string): Promise<SessionRecord[]> {
  const now = services.clock.now();
  const sessions = await services.store.listActiveSessions(userId, now);
  return sessions.filter((session) => !isIdle(session, now, services.options.sessionIdleSeconds));
}
