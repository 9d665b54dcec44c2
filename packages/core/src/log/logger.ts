export type LogFields = Record<string, string | number | boolean | null>;

/**
 * Where the core reports what happened. Fields never hold a token, password or IP.
 * `error` and `warn` are for operators; `info` (lifecycle events) and `debug` (client
 * faults such as an aborted upload, which must not page anyone) are optional, so a
 * logger written for an older version keeps working.
 */
export interface Logger {
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
  info?(event: string, fields?: LogFields): void;
  debug?(event: string, fields?: LogFields): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** One JSON line per event at `level` or above: errors and warnings to stderr, the rest to stdout. */
export function createConsoleLogger(level: LogLevel = 'info'): Logger {
  const writer =
    (at: LogLevel, sink: (text: string) => void) =>
    (event: string, fields?: LogFields): void => {
      if (RANK[at] >= RANK[level]) sink(JSON.stringify({ level: at, event, ...fields }));
    };
  return {
    error: writer('error', (text) => console.error(text)),
    warn: writer('warn', (text) => console.warn(text)),
    info: writer('info', (text) => console.log(text)),
    debug: writer('debug', (text) => console.log(text)),
  };
}

/** The default logger: info and above. */
export const consoleLogger: Logger = createConsoleLogger();
