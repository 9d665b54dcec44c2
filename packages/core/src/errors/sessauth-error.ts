import { ERROR_MESSAGE, ERROR_STATUS, type ErrorCode } from './error-codes.js';

export interface SessauthErrorOptions {
  /** Overrides the code's default status where the contract says so (see ERROR_STATUS). */
  status?: number;
  /** Seconds, for `rate_limited`. */
  retryAfter?: number;
  /** Kept for logs and debugging; never serialised into a response. */
  cause?: unknown;
}

/** An error that maps to one wire response `{"error_code": code}`. */
export class SessauthError extends Error {
  override readonly name: string = 'SessauthError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, options: SessauthErrorOptions = {}) {
    super(ERROR_MESSAGE[code], options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.retryAfter = options.retryAfter;
  }
}

/**
 * Thrown by a store when it cannot answer (connection lost, timeout, constraint it
 * did not expect). The core turns it into 503 `service_unavailable`: fail closed.
 */
export class StoreUnavailableError extends SessauthError {
  override readonly name = 'StoreUnavailableError';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('service_unavailable', options);
    this.message = message;
  }
}

/** A setting failed validation at start-up; the message names the setting. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  readonly setting: string;
  constructor(setting: string, problem: string) {
    super(`${setting}: ${problem}`);
    this.setting = setting;
  }
}
