import type { Logger } from '@sessauth/core';

type Fields = Record<string, string | number | boolean | null>;

/** Keeps every line the engine logs, to prove none carries a token, password or IP. */
export class CapturingLogger implements Logger {
  private readonly own: string[] = [];
  /** Reads the lines of an engine in another runtime, at the moment they are asked for. */
  remoteLines: (() => readonly string[]) | undefined;

  get lines(): readonly string[] {
    return this.remoteLines?.() ?? this.own;
  }

  warn(event: string, fields?: Fields): void {
    this.own.push(JSON.stringify({ level: 'warn', event, ...fields }));
  }

  error(event: string, fields?: Fields): void {
    this.own.push(JSON.stringify({ level: 'error', event, ...fields }));
  }

  info(event: string, fields?: Fields): void {
    this.own.push(JSON.stringify({ level: 'info', event, ...fields }));
  }

  debug(event: string, fields?: Fields): void {
    this.own.push(JSON.stringify({ level: 'debug', event, ...fields }));
  }

  /** The events logged at `level`. */
  eventsAt(level: 'debug' | 'info' | 'warn' | 'error'): string[] {
    return this.lines
      .map((line) => JSON.parse(line) as { level: string; event: string })
      .filter((line) => line.level === level)
      .map((line) => line.event);
  }
}

const IPV4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/;

/** Descriptions of the log lines that leak one of `secrets` or an IPv4 address (empty when clean). */
export function findLogLeaks(lines: readonly string[], secrets: ReadonlySet<string>): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    if (IPV4.test(line)) leaks.push(`an IP address in: ${line}`);
    for (const secret of secrets) {
      // Lines are JSON: also look for the escaped form of the secret.
      if (line.includes(secret) || line.includes(JSON.stringify(secret).slice(1, -1))) {
        leaks.push(`a secret (${secret.slice(0, 6)}...) in: ${line.slice(0, 200)}`);
      }
    }
  }
  return leaks;
}
