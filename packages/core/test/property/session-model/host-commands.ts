import * as model from './reference-model.js';
import type { SessionModel } from './reference-model.js';
import { checkStore, type Command } from './command-kit.js';
import type { SessionSystem } from './session-system.js';

/** The host's server-side invalidate-all, after a password change or on its own. */
export class InvalidateAll implements Command {
  constructor(
    private readonly user: number,
    private readonly changesPassword: boolean,
    private readonly invalidates: boolean,
  ) {}
  check(): boolean {
    return this.invalidates || this.changesPassword;
  }
  async run(m: SessionModel, r: SessionSystem): Promise<void> {
    if (this.changesPassword) {
      const user = r.users[this.user]!;
      user.stamp = `${user.stamp}+`;
      model.changeStamp(m, this.user);
    }
    if (this.invalidates) {
      const count = await r.auth.invalidateAllForUser(r.users[this.user]!.id);
      const expected = model.expireAllForUser(m, this.user);
      if (count !== expected) throw new Error(`${this.toString()}: revoked ${count}, the model says ${expected}`);
    }
    await checkStore(m, r);
  }
  toString(): string {
    return `${this.changesPassword ? 'passwordChange' : 'invalidateAll'}(user ${this.user}${this.changesPassword && !this.invalidates ? ', stamp only' : ''})`;
  }
}

export class AdvanceClock implements Command {
  constructor(private readonly seconds: number) {}
  check(): boolean {
    return true;
  }
  async run(m: SessionModel, r: SessionSystem): Promise<void> {
    m.nowMs += this.seconds * 1000;
    r.clock.advanceMs(this.seconds * 1000);
    await checkStore(m, r);
  }
  toString(): string {
    return `advance(${this.seconds}s)`;
  }
}
