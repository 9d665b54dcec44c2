import { DeviceBoundProofError } from '../errors/device-bound-error.js';
import { DpopBindingError, DpopProofError } from '../errors/dpop-error.js';
import { ERROR_MESSAGE } from '../errors/error-codes.js';
import { describeStoreFault } from '../errors/describe-store-fault.js';
import { IntegrationError, RequestAbortedError, SessauthError, StoreUnavailableError } from '../errors/sessauth-error.js';
import type { Logger } from '../log/logger.js';
import type { SessauthResponse } from './sessauth-request.js';

/** On every response of the auth endpoints, errors included. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache', 'x-content-type-options': 'nosniff' } as const;

export interface ResponseExtras {
  readonly setCookies?: readonly string[];
  readonly headers?: Record<string, string>;
}

export function jsonResponse(status: number, body: unknown, extras: ResponseExtras = {}): SessauthResponse {
  return {
    status,
    headers: { ...NO_STORE, 'content-type': 'application/json', ...extras.headers },
    setCookies: extras.setCookies ?? [],
    body: JSON.stringify(body),
  };
}

/** 200 with an empty body (DELETE and both logouts). */
export function emptyResponse(extras: ResponseExtras = {}): SessauthResponse {
  return { status: 200, headers: { ...NO_STORE, ...extras.headers }, setCookies: extras.setCookies ?? [], body: null };
}

/**
 * The one place a thrown value becomes a response. A `SessauthError` keeps its code;
 * anything else is a bug: logged by name only (no message: it may hold SQL or input)
 * and answered 500 `internal_error` without details.
 */
export function errorToResponse(error: unknown, logger: Logger, extras: ResponseExtras = {}): SessauthResponse {
  if (error instanceof SessauthError) {
    if (error instanceof RequestAbortedError) logger.debug?.('request_aborted');
    // Which DPoP check failed (never the proof or the token): anyone can cause it, so debug only.
    if (error instanceof DpopProofError || error instanceof DpopBindingError) logger.debug?.('dpop_refused', { reason: error.reason });
    if (error instanceof DeviceBoundProofError) logger.debug?.('device_bound_refused', { reason: error.reason });
    // A limiter's fault was logged where it happened (`rate_limiter_failed`).
    if (error instanceof StoreUnavailableError) logger.error('store_unavailable', { error: error.name, ...describeStoreFault(error) });
    const headers: Record<string, string> = { ...extras.headers };
    if (error.retryAfter !== undefined) headers['retry-after'] = String(error.retryAfter);
    if (error.wwwAuthenticate !== undefined) headers['www-authenticate'] = error.wwwAuthenticate;
    // The fixed text of the code, never `error.message`: a store's message may name hosts,
    // ports or driver state, which are for the log, not for the client.
    return jsonResponse(error.status, { error_code: error.code, message: ERROR_MESSAGE[error.code] }, { ...extras, headers });
  }
  if (error instanceof IntegrationError) {
    logger.error('integration_error', { error: error.name, message: error.message });
  } else {
    logger.error('internal_error', { error: error instanceof Error ? error.name : typeof error });
  }
  return jsonResponse(500, { error_code: 'internal_error', message: 'Internal error.' }, extras);
}
