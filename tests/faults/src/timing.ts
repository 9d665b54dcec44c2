import type { LoadShape } from './scenario.js';

/**
 * Durations of the suite. `pnpm test` keeps each window short (the whole suite
 * runs in CI); `pnpm test:soak` (SESSAUTH_SOAK=1) holds every fault for 45 s with
 * 10 s of healthy load on either side, the partition for 90 s, and runs six
 * times the race trials.
 */
export const SOAK = process.env.SESSAUTH_SOAK === '1';

/** 60 requests a second offered to each store's server, from up to 32 clients (each its own user and address). */
export const LOAD_SHAPE: LoadShape = {
  clients: 32,
  rate: 60,
  warmupMs: SOAK ? 10_000 : 1500,
  settleMs: SOAK ? 10_000 : 1000,
};

/** How long an ordinary fault lasts. */
export const HOLD_MS = SOAK ? 45_000 : 1500;
/** The partition ("blackhole for 10 s then heal"). */
export const BLACKHOLE_MS = SOAK ? 90_000 : 10_000;

// In CI half of what they were (the races took three of the suite's four and a half minutes); the
// soak runs six times as many.
export const RACE_TRIALS = SOAK ? 300 : 50;
export const RACE_PARALLEL = 200;
export const REVOKE_TRIALS = SOAK ? 3000 : 500;
/** Each race test is CPU-bound (thousands of requests): generous, for a busy machine. */
export const RACE_TIMEOUT_MS = SOAK ? 3_600_000 : 600_000;

/** Users seeded in each server: the load's clients, the recovery probe, the race trials. */
export const USER_COUNT = LOAD_SHAPE.clients + 1 + 8;

/** Per-call deadlines of the stores (their defaults): the answer bound is this plus one second. */
export const SQL_DEADLINE_MS = 5000;
export const REDIS_DEADLINE_MS = 2000;
