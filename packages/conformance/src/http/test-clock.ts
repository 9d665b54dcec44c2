import type { Clock } from '@sessauth/core';

/** Real time plus an offset the test moves forward, so token and session lifetimes can pass instantly. */
export class TestClock implements Clock {
  private offsetMs = 0;
  /** Told each new offset, at once: an engine in another runtime follows this clock. */
  onAdvance: ((offsetMs: number) => void) | undefined;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
    this.onAdvance?.(this.offsetMs);
  }
}
