import { ERROR_MESSAGE, ERROR_STATUS, type ErrorCode } from './error-codes.js';

export interface SessauthErrorOptions {
  /** Overrides the code's default status where the contract says so (see ERROR_STATUS). */
  status?: number;
  /** Seconds, for `rate_limited`. */
  retryAfter?: number;
  /** Kept for logs and debugging; never serialised into a response. */
  cause?: unknown;
  /** The `WWW-Authenticate` challenge to send with the answer (RFC 6750 s3, RFC 9470 s3). */
  wwwAuthenticate?: string;
}

/** An error that maps to one wire response `{"error_code": code}`. */
export class SessauthError extends Error {
  override readonly name: string = 'SessauthError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly wwwAuthenticate: string | undefined;

  constructor(code: ErrorCode, options: SessauthErrorOptions = {}) {
    super(ERROR_MESSAGE[code], options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.retryAfter = options.retryAfter;
    this.wwwAuthenticate = options.wwwAuthenticate;
  }
}

/**
 * Thrown by a store when it cannot answer (connection lost, timeout, constraint it
 * did not expect). The core turns it into 503 `service_unavailable`: fail closed.
 */
export class StoreUnavailableError extends SessauthError {
  // Typed string, not the literal, so that StoreSchemaError can name itself.
  override readonly name: string = 'StoreUnavailableError';
  /** The store operation that failed (`findSession`, `rotateRefresh`, `hit`...), for the log. */
  readonly operation: string | undefined;
  constructor(message: string, options: { cause?: unknown; operation?: string } = {}) {
    super('service_unavailable', options);
    this.message = message;
    this.operation = options.operation;
  }
}

/**
 * The client went away while its request body was being read (a closed socket, an
 * aborted upload). A client fault, answered 400 if anyone is still listening and
 * logged at debug level only: anyone can cause it, so it must not raise alerts.
 */
export class RequestAbortedError extends SessauthError {
  override readonly name = 'RequestAbortedError';
  constructor(options: { cause?: unknown } = {}) {
    super('invalid_request', options);
  }
}

/**
 * A setting failed validation at start-up. `setting` is the `JWT_*` environment name;
 * `key` is the option key (`secretKey`) where there is one, and then the message names
 * both (`secretKey / JWT_SECRET_KEY: ...`), so code and .env users each see their own name.
 */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  readonly setting: string;
  readonly key: string | undefined;
  constructor(setting: string, problem: string, key?: string) {
    super(`${key === undefined || key === setting ? setting : `${key} / ${setting}`}: ${problem}`);
    this.setting = setting;
    this.key = key;
  }
}

/**
 * The host's integration is wrong (a programmer error, not the client's): a
 * `customClaims` that returns a reserved claim, a `UserPort` without a method a
 * feature needs. Answered 500 `internal_error`; its message is ours, names what to
 * fix, and is logged whole.
 */
export class IntegrationError extends Error {
  override readonly name = 'IntegrationError';
}
