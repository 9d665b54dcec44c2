import type { AdminSessionPage, AdminSessionQuery, SessionRecord, SessionStore } from '@sessauth/core/store';
import { expect } from 'vitest';

/** What each group of store cases gets from `describeStoreConformance`. */
export interface StoreCaseContext {
  /** The store under test (the suite skips every case when there is none). */
  readonly store: () => SessionStore;
  /**
   * A second instance over the same backing data, opened by `openSecondInstance`
   * (the suite skips the cases that need it when the store offers none).
   */
  readonly secondStore: () => SessionStore;
  readonly raceSize: number;
  readonly raceRepeats: number;
}

/** Reads a record back through the port and fails the case when it is gone. */
export async function mustFind(store: SessionStore, id: string): Promise<SessionRecord> {
  const found = await store.findSession(id);
  expect(found, `findSession(${id}) returned null`).not.toBeNull();
  return found as SessionRecord;
}

/** Ids of records, for readable order assertions. */
export function idsOf(records: readonly { readonly id: string }[]): string[] {
  return records.map((record) => record.id);
}

/** Newest first: `createdAt` desc, then id desc (ids are lowercase hex in the suite). */
export function newestFirst<T extends { createdAt: Date; id: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** `items[index]`, which the case knows is there (keeps `noUncheckedIndexedAccess` quiet). */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

/**
 * The store's `listSessionsForAdmin`, bound to it. It is an optional capability of
 * the port: the suite skips the cases that need it when the store lacks it.
 */
export function adminListing(store: SessionStore): (query: AdminSessionQuery) => Promise<AdminSessionPage> {
  const list = store.listSessionsForAdmin;
  if (list === undefined) throw new Error('this store has no listSessionsForAdmin: the case should have been skipped');
  return (query) => list.call(store, query);
}
