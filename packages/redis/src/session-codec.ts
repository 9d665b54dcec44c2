import { parseStoredAmr, parseStoredLocation, type NewSession, type SessionRecord } from '@sessauth/core/store';

/**
 * How a session is laid out in its hash. Times are epoch milliseconds as decimal
 * strings (the Lua scripts compare them as numbers); a null field is absent.
 */
export function sessionFields(session: NewSession): string[] {
  const created = String(session.createdAt.getTime());
  const fields = [
    'id',
    session.id,
    'userId',
    session.userId,
    'refreshJti',
    session.refreshJti,
    'securityStamp',
    session.securityStamp,
    'createdAt',
    created,
    'lastActivityAt',
    created,
    'expiresAt',
    String(session.expiresAt.getTime()),
  ];
  if (session.ipAddress !== null) fields.push('ipAddress', session.ipAddress);
  if (session.userAgent !== null) fields.push('userAgent', session.userAgent);
  if (session.browser !== null) fields.push('browser', session.browser);
  if (session.location !== null) fields.push('location', JSON.stringify(session.location));
  // RFC 9470 freshness: absent on hashes written before it (read as createdAt and []).
  fields.push('authTime', String((session.authTime ?? session.createdAt).getTime()), 'amr', JSON.stringify(session.amr ?? []));
  if (session.acr !== undefined && session.acr !== null) fields.push('acr', session.acr);
  // DPoP (JWT_DPOP): the thumbprint of the key a session is bound to; absent: not bound.
  if (session.dpopJkt !== undefined && session.dpopJkt !== null) fields.push('dpopJkt', session.dpopJkt);
  return fields;
}

/** A flat `HGETALL` reply (as Lua returns it) to an object. */
export function pairsToObject(flat: readonly unknown[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2) {
    hash[String(flat[index])] = String(flat[index + 1]);
  }
  return hash;
}

/** A hash back to a record; null when the hash is empty or not one of ours. */
export function hashToRecord(hash: Record<string, string>): SessionRecord | null {
  const { id, userId, refreshJti, securityStamp } = hash;
  if (id === undefined || userId === undefined || refreshJti === undefined || securityStamp === undefined) {
    return null;
  }
  return {
    id,
    userId,
    refreshJti,
    securityStamp,
    createdAt: toDate(hash.createdAt),
    lastActivityAt: toDate(hash.lastActivityAt ?? hash.createdAt),
    expiresAt: toDate(hash.expiresAt),
    expiredAt: hash.expiredAt === undefined ? null : toDate(hash.expiredAt),
    ipAddress: hash.ipAddress ?? null,
    userAgent: hash.userAgent ?? null,
    browser: hash.browser ?? null,
    location: parseStoredLocation(hash.location),
    name: hash.name ?? null,
    authTime: toDate(hash.authTime ?? hash.createdAt),
    amr: parseStoredAmr(hash.amr),
    acr: hash.acr ?? null,
    ...(hash.dpopJkt === undefined ? {} : { dpopJkt: hash.dpopJkt }),
    ...(hash.deviceBoundKey === undefined ? {} : { deviceBoundKey: hash.deviceBoundKey }),
  };
}

function toDate(millis: string | undefined): Date {
  const value = Number(millis);
  if (millis === undefined || !Number.isFinite(value)) throw new Error('sessauth: malformed session hash');
  return new Date(value);
}
