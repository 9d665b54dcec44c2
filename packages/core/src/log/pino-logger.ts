import type { LogFields, Logger } from './logger.js';

/** One level of a pino logger: an object of fields first, then the message (pino's own order). */
type PinoLevel = (fields: Record<string, unknown>, message: string) => void;

/**
 * The part of a pino logger the adapter calls, by structure: the core does not depend on
 * pino. A child logger (`pino().child({ module: 'auth' })`) fits as well.
 */
export interface PinoLike {
  warn: PinoLevel;
  error: PinoLevel;
  info: PinoLevel;
  debug: PinoLevel;
}

/**
 * A `Logger` over pino: `warn('csrf_failed', { reason })` becomes
 * `pino.warn({ event: 'csrf_failed', reason }, 'csrf_failed')`, so the event is both the
 * message and a field to filter on. pino's own level decides what is written.
 */
export function fromPino(pino: PinoLike): Logger {
  const at =
    (level: PinoLevel) =>
    (event: string, fields?: LogFields): void =>
      level.call(pino, { event, ...fields }, event);
  return { warn: at(pino.warn), error: at(pino.error), info: at(pino.info), debug: at(pino.debug) };
}
