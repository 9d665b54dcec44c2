import fc from 'fast-check';
import { expect } from 'vitest';
import type { SessionStore } from '../../../src/store/store-port.js';
import { fuzzParameters, type RunCounts } from '../kit/fuzz-settings.js';
import { newModel, type ModelSettings } from './reference-model.js';
import { sessionCommands } from './session-commands.js';
import { answersChecked, newSessionSystem } from './session-system.js';

/**
 * Lifetimes short enough for the clock commands to cross: access 60 s, session 300 s,
 * refresh 400 s (a refresh token minted late outlives its session), a cap of 3 active
 * sessions; and the same with sessions that never age out (JWT_SESSION_EXPIRE_SECONDS=0).
 */
export const SESSION_MODEL_SETTINGS: readonly ModelSettings[] = [
  { accessSeconds: 60, refreshSeconds: 400, sessionSeconds: 300, maxActiveSessions: 3 },
  { accessSeconds: 60, refreshSeconds: 400, sessionSeconds: 0, maxActiveSessions: 3 },
];

const START_MS = Date.UTC(2031, 0, 1);

/** Answers every run set must reach, or the generated sequences are too tame to prove anything. */
const MUST_REACH = ['200', '401 expired_token', '401 session_expired', '401 token_reuse_detected', '404 session_not_found', '400 invalid_token_type'];

/**
 * The model-based test of the session state machine: generated sequences of logins,
 * refreshes, replays, guarded requests, listings, deletes, logouts, invalidations,
 * password changes and clock steps run against the real engine over `store()` and
 * against the reference model; every answer and, after every step, every session's
 * revocation in the store must agree. fast-check shrinks a failure to a minimal
 * sequence and prints it with its seed.
 */
export async function checkSessionModel(name: string, store: () => SessionStore, counts: RunCounts, maxCommands = 40): Promise<void> {
  answersChecked.clear();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...SESSION_MODEL_SETTINGS), sessionCommands(maxCommands), async (settings, commands) => {
      const system = await newSessionSystem(store(), settings, START_MS);
      await fc.asyncModelRun(() => ({ model: newModel(settings, START_MS, system.users.length), real: system }), commands);
    }),
    fuzzParameters(name, counts),
  );
  for (const answer of MUST_REACH) expect(answersChecked.get(answer) ?? 0, `runs that checked "${answer}"`).toBeGreaterThan(0);
}
