import type fc from 'fast-check';
import { authenticate, type Expected, type ModelSession, type SessionModel } from './reference-model.js';
import type { RealSession, SessionSystem } from './session-system.js';

export type Command = fc.AsyncCommand<SessionModel, SessionSystem>;

/** The session a command's reference picks, in the model and in the real system alike. */
export function pick(m: SessionModel, r: SessionSystem, ref: number): { ms: ModelSession; rs: RealSession; index: number } {
  const index = ref % m.sessions.length;
  return { ms: m.sessions[index]!, rs: r.sessions[index]!, index };
}

/**
 * After every step: each session's revocation in the store is the model's, and no
 * user has more active sessions than the cap. One read per session.
 */
export async function checkStore(m: SessionModel, r: SessionSystem): Promise<void> {
  for (let i = 0; i < m.sessions.length; i++) {
    const record = await r.store.findSession(r.sessions[i]!.sid);
    if (record === null) throw new Error(`session #${i} is gone from the store`);
    if ((record.expiredAt !== null) !== m.sessions[i]!.revoked) {
      throw new Error(
        `session #${i}: the store says ${record.expiredAt === null ? 'live' : 'revoked'}, the model ${m.sessions[i]!.revoked ? 'revoked' : 'live'}`,
      );
    }
  }
  for (const user of [0, 1]) {
    const active = (await r.store.listActiveSessions(r.users[user]!.id, r.clock.now())).length;
    if (active > m.settings.maxActiveSessions) throw new Error(`user #${user} has ${active} active sessions, above the cap`);
  }
}

/** A command that needs at least one session; `step` does the work and the comparison. */
export abstract class SessionCommand implements Command {
  constructor(protected readonly ref: number) {}
  check(m: Readonly<SessionModel>): boolean {
    return m.sessions.length > 0;
  }
  async run(m: SessionModel, r: SessionSystem): Promise<void> {
    await this.step(m, r, pick(m, r, this.ref));
    await checkStore(m, r);
  }
  protected abstract step(m: SessionModel, r: SessionSystem, chosen: ReturnType<typeof pick>): Promise<void>;
  abstract toString(): string;
}

/** An endpoint that authenticates with the session's newest access token first. */
export abstract class AuthenticatedCommand extends SessionCommand {
  protected async step(m: SessionModel, r: SessionSystem, chosen: ReturnType<typeof pick>): Promise<void> {
    const auth = authenticate(m, chosen.ms, chosen.ms.access.length - 1);
    await this.call(m, r, chosen, auth.status === 200 ? null : auth);
  }
  /** `refused` is the authentication failure the model predicts, or null when it passes. */
  protected abstract call(m: SessionModel, r: SessionSystem, chosen: ReturnType<typeof pick>, refused: Expected | null): Promise<void>;
}
