import type { LogFields, Logger } from './logger.js';

/** One level of Nest's `LoggerService`: a message (any value) and optional parameters. */
type NestLevel = (message: unknown, ...optionalParams: unknown[]) => unknown;

/**
 * The part of Nest's `LoggerService` (`new Logger('Sessauth')` from `@nestjs/common`, or an
 * app's own) the adapter calls, by structure: the core does not depend on Nest.
 */
export interface NestLoggerLike {
  warn: NestLevel;
  error: NestLevel;
  log: NestLevel;
  debug?: NestLevel;
}

/**
 * A `Logger` over Nest's logger: `warn('csrf_failed', { reason })` becomes
 * `logger.warn('csrf_failed {"reason":"..."}')`, one line in Nest's console format and a
 * `message` field in its JSON mode; `info` goes to `log`, `debug` to `debug` when present.
 * The message is one string because Nest reads a trailing string parameter as the context
 * and prints objects over several lines.
 */
export function fromNestLogger(logger: NestLoggerLike): Logger {
  const at =
    (level: NestLevel | undefined) =>
    (event: string, fields?: LogFields): void => {
      if (level === undefined) return;
      const hasFields = fields !== undefined && Object.keys(fields).length > 0;
      level.call(logger, hasFields ? `${event} ${JSON.stringify(fields)}` : event);
    };
  return { warn: at(logger.warn), error: at(logger.error), info: at(logger.log), debug: at(logger.debug) };
}
