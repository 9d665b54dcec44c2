import type { RateLimitStore, Sessauth, SessionStore } from '@sessauth/core';

/** The host's user in the conformance app; tests flip `active` and `stamp` in place. */
export interface ConformanceUser {
  id: string;
  username: string;
  passwordHash: string;
  stamp: string;
  active: boolean;
}

/** One running app: where it listens, and how to stop it. */
export interface AppUnderTest {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Mounts a ready Sessauth instance in the adapter's framework and listens on 127.0.0.1:0. The app must:
 * - pass every request to the adapter's sessauth routes (the seven endpoints under `auth.options.prefix`),
 * - serve `GET /me` behind the adapter's guard, answering 200 `{"user":{"id","username"},"session":{"id"}}`,
 *   with guard failures answered by the core's error response (`auth.errorResponse(err)`),
 * - trust nothing but the TCP peer for the client address.
 */
export type MountApp = (auth: Sessauth<ConformanceUser>) => Promise<AppUnderTest>;

/** Opens a session store for one conformance cell; `null` means the backing server is unavailable (skip). */
export interface StoreFactory {
  (): Promise<{ store: SessionStore; close(): Promise<void> } | null>;
}

/** Opens a shared rate-limit store; without one each test app gets the core's in-memory counters. */
export type RateLimitStoreFactory = () => Promise<{ store: RateLimitStore; close(): Promise<void> }>;

export interface AdapterConformanceInput {
  mountApp: MountApp;
  makeStore: StoreFactory;
  makeRateLimitStore?: RateLimitStoreFactory;
}

export interface AdapterConformanceOptions {
  /** Test ids (`"csrf/foreign-origin"`) or topics (`"csrf/"`) to skip, each with a reason in the caller's code. */
  skip?: string[];
}
