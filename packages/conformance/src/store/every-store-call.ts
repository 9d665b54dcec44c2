import { StoreSchemaError, StoreUnavailableError, type SessionStore } from '@sessauth/core';
import { expect } from 'vitest';
import { newSessionFixture } from './session-fixtures.js';

/** One named call of the store port. */
export type StoreCall = readonly [name: string, call: () => Promise<unknown>];

/**
 * Every method of the store port the store has, each called once with harmless arguments: the
 * required ones, and the optional ones where the store has them (the step-up, the admin listing,
 * the start-up check, the activity history, the Shared Signals outbox). A fault test calls them
 * all against a database that cannot answer and expects each one to fail closed; a store that
 * grows an operation is covered the day it has it.
 */
export function everyStoreCall(store: SessionStore): StoreCall[] {
  const now = new Date();
  const session = newSessionFixture();
  const rotation = { sessionId: session.id, userId: session.userId, presentedJti: 'a', nextJti: 'b', securityStamp: 's', now };
  const calls: StoreCall[] = [
    ['findSession', () => store.findSession(session.id)],
    ['createSession', () => store.createSession({ session, maxActiveSessions: 3 })],
    ['listActiveSessions', () => store.listActiveSessions(session.userId, now)],
    ['rotateRefresh', () => store.rotateRefresh(rotation)],
    ['expireSession', () => store.expireSession(session.id, session.userId, now)],
    ['expireAllForUser', () => store.expireAllForUser(session.userId, now)],
    ['renameSession', () => store.renameSession(session.id, session.userId, 'laptop', now)],
    ['touchSession', () => store.touchSession(session.id, now)],
    ['purgeExpired', () => store.purgeExpired(now)],
  ];
  const {
    recordStepUp,
    listSessionsForAdmin,
    checkSchema,
    appendActivity,
    listActivity,
    holdSecurityEvents,
    releaseSecurityEvents,
    claimSecurityEvents,
    settleSecurityEvent,
  } = store;
  if (recordStepUp !== undefined) {
    calls.push([
      'recordStepUp',
      () => recordStepUp.call(store, { sessionId: session.id, userId: session.userId, authTime: now, amr: ['pwd'], acr: null, now }),
    ]);
  }
  if (listSessionsForAdmin !== undefined) calls.push(['listSessionsForAdmin', () => listSessionsForAdmin.call(store, { now, limit: 10 })]);
  if (checkSchema !== undefined) calls.push(['checkSchema', () => checkSchema.call(store)]);
  if (appendActivity !== undefined) {
    const entry = {
      id: 'a',
      sessionId: session.id,
      userId: session.userId,
      kind: 'created' as const,
      at: now,
      expiresAt: now,
      ipAddress: null,
      browser: null,
      location: null,
      detail: null,
    };
    calls.push(['appendActivity', () => appendActivity.call(store, { entries: [entry], maxEntriesPerSession: 5 })]);
  }
  if (listActivity !== undefined) {
    calls.push(['listActivity', () => listActivity.call(store, { userId: session.userId, sessionIds: [session.id], now })]);
  }
  if (holdSecurityEvents !== undefined) {
    const event = { id: 'e', batchId: 'b', streamId: 's', token: 't', userId: session.userId, sessionId: session.id, createdAt: now };
    calls.push(['holdSecurityEvents', () => holdSecurityEvents.call(store, [event], now)]);
  }
  if (releaseSecurityEvents !== undefined) calls.push(['releaseSecurityEvents', () => releaseSecurityEvents.call(store, 'b', true, now)]);
  if (claimSecurityEvents !== undefined) calls.push(['claimSecurityEvents', () => claimSecurityEvents.call(store, now, now, 10)]);
  if (settleSecurityEvent !== undefined) calls.push(['settleSecurityEvent', () => settleSecurityEvent.call(store, 'e', { kind: 'remove' })]);
  return calls;
}

/**
 * Each of `everyStoreCall` (all at once) rejects with StoreUnavailableError (the core's 503)
 * whose message names the operation, `<packageName>: <operation> failed` or `... timed out`;
 * `checkSchema` may instead reject with a StoreSchemaError (itself a StoreUnavailableError).
 * `expected` names the calls the store must have, so a store that lost an operation fails here.
 */
export async function expectEveryStoreCallUnavailable(store: SessionStore, packageName: string, expected: readonly string[] = []): Promise<void> {
  const calls = everyStoreCall(store);
  const names = calls.map(([name]) => name);
  for (const name of expected) expect(names, `the store has ${name}`).toContain(name);
  const errors = await Promise.all(
    calls.map(([, call]) =>
      call().then(
        () => null,
        (e: unknown) => e,
      ),
    ),
  );
  for (const [index, [name]] of calls.entries()) {
    const error = errors[index];
    expect(error, name).toBeInstanceOf(StoreUnavailableError);
    if (error instanceof StoreSchemaError) expect(name).toBe('checkSchema');
    else
      expect((error as Error).message, name).toMatch(
        new RegExp(`^${packageName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${name} (failed|timed out)`),
      );
  }
}
