import { IntegrationError, SessauthError } from '../errors/sessauth-error.js';
import type { ResolvedOptions } from '../options/options.js';
import type { SessionRecord } from '../store/store-port.js';
import type { FreshnessClaims } from '../tokens/token-service.js';

/** What a route demands of the session's last proof of identity (RFC 9470). */
export interface FreshnessRule {
  /** The proof (login or step-up) is at most this many seconds old. */
  readonly maxAgeSeconds?: number;
  /** The session's `acr` is one of these (one value, or a list in order of preference). */
  readonly acr?: string | readonly string[];
}

/** RFC 9470 s3 `acr_values` are space-separated; a value is printable ASCII without space, quote or backslash. */
const ACR_VALUE = /^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/;

/** When the user last proved who they are on this session; older stores and rows: its creation. */
export function authTimeOf(session: Pick<SessionRecord, 'createdAt' | 'authTime'>): Date {
  return session.authTime ?? session.createdAt;
}

/** A rule as the host wrote it, checked once (a programmer error throws an `IntegrationError`). */
export function checkFreshnessRule(rule: FreshnessRule): FreshnessRule {
  if (typeof rule !== 'object' || rule === null) throw new IntegrationError('requireFresh: give { maxAgeSeconds } and/or { acr }');
  const { maxAgeSeconds, acr } = rule;
  if (maxAgeSeconds === undefined && acr === undefined) throw new IntegrationError('requireFresh: give { maxAgeSeconds } and/or { acr }');
  if (maxAgeSeconds !== undefined && (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0)) {
    throw new IntegrationError('requireFresh: maxAgeSeconds must be a whole number of seconds, 0 or more');
  }
  if (acr !== undefined) {
    const values: readonly unknown[] = typeof acr === 'string' ? [acr] : Array.isArray(acr) ? acr : [null];
    if (values.length === 0 || !values.every((value) => typeof value === 'string' && ACR_VALUE.test(value))) {
      throw new IntegrationError('requireFresh: acr must be one or more values of printable ASCII without spaces, quotes or backslashes');
    }
  }
  return rule;
}

/**
 * Throws 401 `insufficient_user_authentication` with RFC 9470's challenge when the session's
 * last proof is older than `maxAgeSeconds` or did not reach one of the `acr` values. Read
 * from the session row the guard already fetched: no store call, and a step-up counts at once.
 */
export function assertFresh(session: Pick<SessionRecord, 'createdAt' | 'authTime' | 'acr'>, now: Date, rule: FreshnessRule): void {
  const { maxAgeSeconds, acr } = rule;
  const acrValues = acr === undefined ? undefined : typeof acr === 'string' ? [acr] : acr;
  const tooOld = maxAgeSeconds !== undefined && now.getTime() - authTimeOf(session).getTime() > maxAgeSeconds * 1000;
  const tooWeak = acrValues !== undefined && !acrValues.includes(session.acr ?? '');
  if (!tooOld && !tooWeak) return;
  const params = ['error="insufficient_user_authentication"'];
  params.push(`error_description="${tooWeak ? 'A different authentication level is required' : 'More recent authentication is required'}"`);
  if (acrValues !== undefined) params.push(`acr_values="${acrValues.join(' ')}"`);
  if (maxAgeSeconds !== undefined) params.push(`max_age="${maxAgeSeconds}"`);
  throw new SessauthError('insufficient_user_authentication', { wwwAuthenticate: `Bearer ${params.join(', ')}` });
}

/** The built-in sensitive actions' rule (JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS); nothing when it is off. */
export function assertFreshForSensitiveAction(options: ResolvedOptions, session: SessionRecord, now: Date): void {
  if (options.sensitiveActionMaxAgeSeconds > 0) assertFresh(session, now, { maxAgeSeconds: options.sensitiveActionMaxAgeSeconds });
}

/**
 * Whether an access token of this session carries `auth_time` (and `acr`): only once the host
 * uses step-up (JWT_SENSITIVE_ACTION_MAX_AGE_SECONDS set, a session given an `acr`, or one that
 * stepped up after its login). Everything else mints exactly the tokens of a host without it.
 */
export function freshnessClaimsFor(
  options: ResolvedOptions,
  session: Pick<SessionRecord, 'createdAt' | 'authTime' | 'acr'>,
): FreshnessClaims | undefined {
  const authTime = authTimeOf(session);
  const acr = session.acr ?? null;
  const used = options.sensitiveActionMaxAgeSeconds > 0 || acr !== null || authTime.getTime() > session.createdAt.getTime();
  return used ? { authTime, acr } : undefined;
}
