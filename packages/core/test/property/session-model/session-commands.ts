import fc from 'fast-check';
import { CrossKind, DeleteSession, Guard, ListSessions, Login, Logout, Refresh, Replay } from './client-commands.js';
import type { Command } from './command-kit.js';
import { AdvanceClock, InvalidateAll } from './host-commands.js';

/**
 * The commands, weighted by repetition. Clock steps straddle the access (60 s),
 * session (300 s) and refresh (400 s) lifetimes of `SESSION_MODEL_SETTINGS`.
 */
export function sessionCommands(maxCommands: number): fc.Arbitrary<Iterable<Command>> {
  const user = fc.nat(1);
  const ref = fc.nat();
  return fc.commands(
    [
      user.map((u) => new Login(u)),
      user.map((u) => new Login(u)),
      ref.map((s) => new Refresh(s)),
      ref.map((s) => new Refresh(s)),
      fc.tuple(ref, ref).map(([s, t]) => new Replay(s, t)),
      fc.tuple(ref, ref).map(([s, t]) => new Guard(s, t)),
      fc.tuple(ref, ref).map(([s, t]) => new Guard(s, t)),
      fc.tuple(ref, fc.constantFrom('refresh' as const, 'guard' as const)).map(([s, where]) => new CrossKind(s, where)),
      ref.map((s) => new ListSessions(s)),
      fc.tuple(ref, fc.oneof(ref, fc.constantFrom('unknown' as const, 'malformed' as const))).map(([s, t]) => new DeleteSession(s, t)),
      fc.tuple(ref, fc.boolean()).map(([s, all]) => new Logout(s, all)),
      fc.tuple(user, fc.boolean(), fc.boolean()).map(([u, change, invalidate]) => new InvalidateAll(u, change, invalidate)),
      fc.constantFrom(1, 1, 5, 30, 59, 61, 120, 299, 301, 399, 401, 3600).map((seconds) => new AdvanceClock(seconds)),
    ],
    { maxCommands, size: 'max' },
  );
}
