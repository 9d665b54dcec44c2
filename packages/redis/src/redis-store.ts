import { consoleLogger } from '@sessauth/core';
import type { Logger, SessionRecord, SessionStore } from '@sessauth/core';
import type {
  ActivityEntry,
  ActivityQuery,
  AppendActivityInput,
  AdminSessionPage,
  AdminSessionQuery,
  CreateSessionInput,
  ExpireAllOptions,
  RotateOutcome,
  RotateRefreshInput,
  StepUpInput,
  BindDeviceKeyInput,
  NewSecurityEvent,
  SecurityEventOutcome,
  SecurityEventRecord,
} from '@sessauth/core/store';
import { RedisSecurityEventOutbox } from './security-event-outbox.js';
import { listSessionsForAdmin } from './admin-listing.js';
import { checkPersistence, type PersistenceReport } from './check-persistence.js';
import { refuseUnsupportedClient } from './client-options.js';
import { copyNewRecord, createSession } from './create-session.js';
import { findSessions } from './find-sessions.js';
import { runWriteScript, validateDurability } from './durability.js';
import { guard } from './guard.js';
import { KeyLayout } from './keys.js';
import { OwnerCache } from './owner-cache.js';
import { purgeExpired } from './purge-expired.js';
import { appendActivity, listActivity } from './activity.js';
import {
  DEFAULT_OPERATION_TIMEOUT_MS,
  DEFAULT_OWNER_CACHE_SIZE,
  DEFAULT_RETENTION_SECONDS,
  type RedisSessionStoreOptions,
} from './redis-store-options.js';
import { runScript } from './script-runner.js';
import { SCRIPTS } from './scripts/session-scripts.js';
import { verifyServer } from './verify-server.js';
import { hashToRecord, pairsToObject, sessionFields } from './session-codec.js';
import { readOwner, type StoreContext } from './store-context.js';

/**
 * The session store over Redis. Each state change is one Lua script on the keys of
 * one user (one cluster slot); see `keys.ts` for the layout and the README for the
 * cluster story. Every call is bounded by `operationTimeoutMs` and fails with
 * `StoreUnavailableError`.
 */
export class RedisSessionStore implements SessionStore {
  private readonly ctx: StoreContext;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly outbox: RedisSecurityEventOutbox;

  constructor(options: RedisSessionStoreOptions) {
    refuseUnsupportedClient(options.client, 'RedisSessionStore');
    const retentionSeconds = options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
    if (!(retentionSeconds > 0)) throw new TypeError('RedisSessionStore: retentionSeconds must be positive');
    this.timeoutMs = options.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
    this.logger = options.logger ?? consoleLogger;
    this.ctx = {
      client: options.client,
      keys: new KeyLayout(options.keyPrefix),
      owners: new OwnerCache(options.ownerCacheSize ?? DEFAULT_OWNER_CACHE_SIZE),
      retentionMs: Math.round(retentionSeconds * 1000),
      durability: validateDurability(options.durability, this.timeoutMs, options.client),
      logger: this.logger,
    };
    this.outbox = new RedisSecurityEventOutbox(this.ctx, this.ctx.keys.prefix);
  }

  /** The Shared Signals outbox: one Lua script per operation on the `{ssf}` slot (see `SecurityEventOutbox`). */
  holdSecurityEvents(events: readonly NewSecurityEvent[], recoverAfter: Date): Promise<void> {
    return guard('holdSecurityEvents', this.timeoutMs, () => this.outbox.hold(events, recoverAfter));
  }

  releaseSecurityEvents(batchId: string, deliver: boolean, now: Date): Promise<number> {
    return guard('releaseSecurityEvents', this.timeoutMs, () => this.outbox.release(batchId, deliver, now));
  }

  claimSecurityEvents(now: Date, leaseUntil: Date, limit: number): Promise<SecurityEventRecord[]> {
    return guard('claimSecurityEvents', this.timeoutMs, () => this.outbox.claim(now, leaseUntil, limit));
  }

  settleSecurityEvent(id: string, outcome: SecurityEventOutcome): Promise<void> {
    return guard('settleSecurityEvent', this.timeoutMs, () => this.outbox.settle(id, outcome));
  }

  createSession(input: CreateSessionInput): Promise<SessionRecord> {
    const max = input.maxActiveSessions;
    if (!Number.isSafeInteger(max) || max < 1) {
      return Promise.reject(new RangeError('RedisSessionStore: maxActiveSessions must be a positive integer'));
    }
    // Copy before the first await: the caller may change its objects meanwhile.
    const record = copyNewRecord(input.session);
    const fields = sessionFields(input.session);
    return guard('createSession', this.timeoutMs, () => createSession(this.ctx, record, fields, input.maxActiveSessions));
  }

  findSession(id: string): Promise<SessionRecord | null> {
    return guard('findSession', this.timeoutMs, () => {
      const cached = this.ctx.owners.get(id);
      // The guard's read, once per authenticated request: one HGETALL when the owner is known.
      if (cached === undefined) return this.findByOwnerLookup(id, undefined);
      return this.ctx.client.hgetall(this.ctx.keys.session(cached, id)).then((hash) => hashToRecord(hash) ?? this.findByOwnerLookup(id, cached));
    });
  }

  /**
   * Many sessions by id (the core coalesces the guard's reads through it): the `HGETALL`s
   * sent at once when the owners are known (back to back on the connection; on a cluster each
   * routed on its own); under the same deadline as one `findSession`.
   */
  findSessions(ids: readonly string[]): Promise<Map<string, SessionRecord>> {
    return guard('findSessions', this.timeoutMs, () => findSessions(this.ctx, ids));
  }

  /** The session's owner read from Redis (not cached, or the cached one no longer holds it), then its hash. */
  private async findByOwnerLookup(id: string, cached: string | undefined): Promise<SessionRecord | null> {
    const owner = await readOwner(this.ctx, id);
    if (owner === null || owner === cached) return null;
    return hashToRecord(await this.ctx.client.hgetall(this.ctx.keys.session(owner, id)));
  }

  listActiveSessions(userId: string, now: Date): Promise<SessionRecord[]> {
    return guard('listActiveSessions', this.timeoutMs, async () => {
      const { client, keys } = this.ctx;
      const reply = await runScript(client, SCRIPTS.listActive, [keys.activeIndex(userId)], [keys.sessionBase(userId), now.getTime()]);
      return asArray(reply).flatMap((flat) => {
        const record = hashToRecord(pairsToObject(asArray(flat)));
        return record === null ? [] : [record];
      });
    });
  }

  rotateRefresh(input: RotateRefreshInput): Promise<RotateOutcome> {
    return guard('rotateRefresh', this.timeoutMs, async () => {
      const { keys } = this.ctx;
      const { sessionId, userId } = input;
      // Keyed by the presented user: the common case is one round trip.
      const reply = asArray(
        await runWriteScript(
          this.ctx,
          'rotateRefresh',
          SCRIPTS.rotateRefresh,
          [keys.session(userId, sessionId), keys.activeIndex(userId)],
          [
            userId,
            input.presentedJti,
            input.nextJti,
            input.securityStamp,
            input.now.getTime(),
            this.ctx.retentionMs,
            input.idleCutoff === undefined ? '' : input.idleCutoff.getTime(),
          ],
        ),
      );
      const status = String(reply[0]);
      if (status === 'consumed') {
        const session = hashToRecord(pairsToObject(reply.slice(1)));
        if (session === null) throw new Error('rotateRefresh: malformed reply');
        return { status, session };
      }
      if (status === 'missing') return this.missingOrWrongUser(sessionId, userId);
      if (status === 'wrong_user' || status === 'expired' || status === 'idle' || status === 'security_changed' || status === 'reused') {
        return { status };
      }
      throw new Error(`rotateRefresh: unexpected reply ${status}`);
    });
  }

  expireSession(id: string, userId: string, now: Date): Promise<boolean> {
    return guard('expireSession', this.timeoutMs, async () => {
      const { keys, retentionMs } = this.ctx;
      const keysOfScript = [keys.session(userId, id), keys.activeIndex(userId)];
      const revoked = await runWriteScript(this.ctx, 'expireSession', SCRIPTS.expireSession, keysOfScript, [userId, now.getTime(), retentionMs]);
      return Number(revoked) === 1;
    });
  }

  expireAllForUser(userId: string, now: Date, options: ExpireAllOptions = {}): Promise<number> {
    return guard('expireAllForUser', this.timeoutMs, async () => {
      const { keys, retentionMs } = this.ctx;
      // '' is never a session id: no session is kept.
      const revoked = await runWriteScript(
        this.ctx,
        'expireAllForUser',
        SCRIPTS.expireAll,
        [keys.activeIndex(userId)],
        [keys.sessionBase(userId), now.getTime(), retentionMs, options.exceptSessionId ?? ''],
      );
      return Number(revoked);
    });
  }

  renameSession(id: string, userId: string, name: string, now: Date): Promise<boolean> {
    return guard('renameSession', this.timeoutMs, async () => {
      const { keys } = this.ctx;
      const renamed = await runWriteScript(
        this.ctx,
        'renameSession',
        SCRIPTS.renameSession,
        [keys.session(userId, id)],
        [userId, name, now.getTime()],
      );
      return Number(renamed) === 1;
    });
  }

  recordStepUp(input: StepUpInput): Promise<boolean> {
    return guard('recordStepUp', this.timeoutMs, async () => {
      const { keys } = this.ctx;
      const { sessionId, userId } = input;
      const args = [userId, input.now.getTime(), input.authTime.getTime(), JSON.stringify(input.amr), input.acr ?? ''];
      return Number(await runWriteScript(this.ctx, 'recordStepUp', SCRIPTS.recordStepUp, [keys.session(userId, sessionId)], args)) === 1;
    });
  }

  bindDeviceKey(input: BindDeviceKeyInput): Promise<boolean> {
    return guard('bindDeviceKey', this.timeoutMs, async () => {
      const { keys } = this.ctx;
      const args = [input.userId, input.now.getTime(), input.publicKey];
      return (
        Number(await runWriteScript(this.ctx, 'bindDeviceKey', SCRIPTS.bindDeviceKey, [keys.session(input.userId, input.sessionId)], args)) === 1
      );
    });
  }

  appendActivity(input: AppendActivityInput): Promise<void> {
    return guard('appendActivity', this.timeoutMs, () => appendActivity(this.ctx, input));
  }

  listActivity(query: ActivityQuery): Promise<Map<string, ActivityEntry[]>> {
    return guard('listActivity', this.timeoutMs, () => listActivity(this.ctx, query));
  }

  touchSession(id: string, now: Date): Promise<void> {
    return guard('touchSession', this.timeoutMs, async () => {
      const { keys, owners } = this.ctx;
      const touch = (owner: string) => runWriteScript(this.ctx, 'touchSession', SCRIPTS.touchSession, [keys.session(owner, id)], [now.getTime()]);
      const cached = owners.get(id);
      if (cached !== undefined && Number(await touch(cached)) !== -1) return;
      const owner = await readOwner(this.ctx, id);
      if (owner !== null && owner !== cached) await touch(owner);
    });
  }

  purgeExpired(now: Date): Promise<number> {
    // Many round trips by nature (batches): bounded per batch, not as a whole.
    return purgeExpired(this.ctx, now, (operation, run) => guard(operation, this.timeoutMs, run));
  }

  listSessionsForAdmin(query: AdminSessionQuery): Promise<AdminSessionPage> {
    return listSessionsForAdmin(this.ctx, query, (operation, run) => guard(operation, this.timeoutMs, run));
  }

  /**
   * Warns (once per call, through the logger) when the server's persistence could
   * lose an acknowledged revocation: AOF off, or fsync less often than every write.
   * Call it at start-up; it never throws.
   */
  checkPersistence(): Promise<PersistenceReport> {
    return checkPersistence(this.ctx.client, this.logger, this.timeoutMs);
  }

  /**
   * The start-up check (`createSessauth` calls it). Redis has no schema: this checks
   * that the server answers and runs scripts (see `verify-server.ts`); it rejects
   * with `StoreUnavailableError` only, so the host starts and logs `store_unverified`.
   */
  checkSchema(): Promise<void> {
    return verifyServer(this.ctx.client, this.timeoutMs, 'checkSchema');
  }

  /** @deprecated Renamed `checkSchema` (in sessauth, `verify` means tokens). */
  verify(): Promise<void> {
    return this.checkSchema();
  }

  /** `missing` first, then `wrong_user`: only a session that exists can belong to someone else. */
  private async missingOrWrongUser(sessionId: string, userId: string): Promise<RotateOutcome> {
    const owner = await readOwner(this.ctx, sessionId);
    if (owner === null || owner === userId) return { status: 'missing' };
    const hash = await this.ctx.client.hgetall(this.ctx.keys.session(owner, sessionId));
    return { status: hashToRecord(hash) === null ? 'missing' : 'wrong_user' };
  }
}

function asArray(reply: unknown): unknown[] {
  if (!Array.isArray(reply)) throw new Error('redis store: expected an array reply');
  return reply;
}
