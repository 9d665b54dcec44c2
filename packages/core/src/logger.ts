/**
 * Where the core reports faults. Fields never hold a token, password or IP; the
 * default writes one JSON line per event to stderr.
 */
export interface Logger {
  warn(event: string, fields?: Record<string, string | number | boolean | null>): void;
  error(event: string, fields?: Record<string, string | number | boolean | null>): void;
}

export const consoleLogger: Logger = {
  warn: (event, fields) => console.warn(JSON.stringify({ level: 'warn', event, ...fields })),
  error: (event, fields) => console.error(JSON.stringify({ level: 'error', event, ...fields })),
};
