/**
 * The key layout. Every key of one user carries the hash tag `{u:<user>}`, so each
 * Lua script touches one cluster slot:
 *
 *   <prefix>{u:<user>}:s:<sessionId>   hash: one session (active or revoked)
 *   <prefix>{u:<user>}:active          sorted set: the user's unrevoked session ids, score createdAt ms
 *   <prefix>{u:<user>}:all             sorted set: every stored session id of the user (admin listing)
 *   <prefix>{u:<user>}:a:<sessionId>   list: the session's activity history (JSON entries, oldest first)
 *   <prefix>owner:<sessionId>          string: the owning user id (findSession only has the id)
 *   <prefix>{all}:sessions             sorted set: every stored session id, score createdAt ms (admin)
 *   <prefix>rl:<key>                   string: a rate-limit counter
 *
 * `<user>` is the user id with `%`, `{` and `}` percent-escaped, so it cannot end the
 * hash tag early and two user ids never share a key. Session ids follow the tag and
 * need no escaping: braces after the first tag do not change the slot.
 */
export const DEFAULT_KEY_PREFIX = 'sessauth:';

export function escapeTag(value: string): string {
  return value.replace(/[%{}]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

export class KeyLayout {
  readonly allSessions: string;

  constructor(readonly prefix: string = DEFAULT_KEY_PREFIX) {
    this.allSessions = `${prefix}{all}:sessions`;
  }

  /** Prefix of the user's session hashes; a script appends the session id. */
  sessionBase(userId: string): string {
    return `${this.userTag(userId)}:s:`;
  }

  session(userId: string, sessionId: string): string {
    return this.sessionBase(userId) + sessionId;
  }

  /** The activity history of one session (JWT_SESSION_ACTIVITY), under its user's tag. */
  activity(userId: string, sessionId: string): string {
    return `${this.userTag(userId)}:a:${sessionId}`;
  }

  activeIndex(userId: string): string {
    return `${this.userTag(userId)}:active`;
  }

  allIndex(userId: string): string {
    return `${this.userTag(userId)}:all`;
  }

  owner(sessionId: string): string {
    return `${this.prefix}owner:${sessionId}`;
  }

  counter(key: string): string {
    return `${this.prefix}rl:${key}`;
  }

  private userTag(userId: string): string {
    return `${this.prefix}{u:${escapeTag(userId)}}`;
  }
}
