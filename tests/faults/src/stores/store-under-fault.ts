import type { Fault } from '../scenario.js';

/** One store prepared for the suite: where the servers find it, and what can go wrong with it. */
export interface StoreUnderFault {
  readonly label: string;
  /** `SESSAUTH_STORE` for the example servers (through the fault proxy where there is one). */
  readonly storeUrl: string;
  /** The store's per-call deadline. */
  readonly deadlineMs: number;
  /** The scenarios, in the order they run. */
  readonly faults: readonly Fault[];
  /** Run the servers as this user (SQLite: so that file permissions apply when the tests run as root). */
  readonly runAs?: { readonly uid: number; readonly gid: number };
  /** Drops what was created for the suite. */
  close(): Promise<void>;
}
