import type { LogFields, Logger } from './logger.js';

/** One level of a winston logger: the message, then the metadata object. */
type WinstonLevel = (message: string, meta: Record<string, unknown>) => unknown;

/** The part of a winston logger the adapter calls, by structure: the core does not depend on winston. */
export interface WinstonLike {
  warn: WinstonLevel;
  error: WinstonLevel;
  info: WinstonLevel;
  debug: WinstonLevel;
}

/**
 * A `Logger` over winston: `warn('csrf_failed', { reason })` becomes
 * `winston.warn('csrf_failed', { event: 'csrf_failed', reason })`: the event is the message,
 * the fields are the metadata the formats (`json()`, `logstash()`) write out.
 */
export function fromWinston(winston: WinstonLike): Logger {
  const at =
    (level: WinstonLevel) =>
    (event: string, fields?: LogFields): void => {
      level.call(winston, event, { event, ...fields });
    };
  return { warn: at(winston.warn), error: at(winston.error), info: at(winston.info), debug: at(winston.debug) };
}
