/** Every `error_code` the wire contract can carry. */
export type ErrorCode =
  | 'invalid_credentials'
  | 'expired_token'
  | 'invalid_token'
  | 'invalid_token_type'
  | 'invalid_user'
  | 'insufficient_user_authentication'
  | 'invalid_dpop_proof'
  | 'invalid_device_bound_proof'
  | 'device_bound_challenge'
  | 'session_not_found'
  | 'session_expired'
  | 'token_reuse_detected'
  | 'csrf_failed'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'login_busy'
  | 'invalid_request'
  | 'payload_too_large'
  | 'not_found'
  | 'method_not_allowed'
  | 'forbidden'
  | 'service_unavailable'
  | 'internal_error';

/**
 * The default HTTP status of each code. Two codes depend on where they happen
 * (`invalid_token_type`: 400 on refresh, 401 on a protected route; `session_not_found`:
 * 401 for a token, 404 on DELETE); the raiser passes the status explicitly there.
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_credentials: 401,
  expired_token: 401,
  invalid_token: 401,
  invalid_token_type: 401,
  invalid_user: 401,
  insufficient_user_authentication: 401,
  invalid_dpop_proof: 401,
  invalid_device_bound_proof: 401,
  // DBSC: a 403 tells the browser to sign the challenge sent with it and try again.
  device_bound_challenge: 403,
  session_not_found: 401,
  session_expired: 401,
  token_reuse_detected: 401,
  csrf_failed: 403,
  unsupported_media_type: 415,
  rate_limited: 429,
  login_busy: 429,
  invalid_request: 400,
  payload_too_large: 413,
  not_found: 404,
  method_not_allowed: 405,
  forbidden: 403,
  service_unavailable: 503,
  internal_error: 500,
};

/** A short human message per code; never carries request data. */
export const ERROR_MESSAGE: Readonly<Record<ErrorCode, string>> = {
  invalid_credentials: 'Invalid credentials.',
  expired_token: 'The token has expired.',
  invalid_token: 'The token is invalid.',
  invalid_token_type: 'Wrong kind of token for this endpoint.',
  invalid_user: 'The user is unknown or inactive.',
  insufficient_user_authentication: 'This action needs a more recent or stronger sign-in.',
  invalid_dpop_proof: 'The DPoP proof is missing or invalid.',
  invalid_device_bound_proof: 'The device-bound session proof is missing or invalid.',
  device_bound_challenge: 'Sign the challenge sent with this answer and try again.',
  session_not_found: 'Session not found.',
  session_expired: 'The session has expired or was revoked.',
  token_reuse_detected: 'A refresh token was reused; the session has been revoked.',
  csrf_failed: 'CSRF verification failed.',
  unsupported_media_type: 'Content-Type must be application/json.',
  rate_limited: 'Too many requests.',
  login_busy: 'Too many sign-ins are being checked right now; try again shortly.',
  invalid_request: 'The request is malformed.',
  payload_too_large: 'The request body is too large.',
  not_found: 'Not found.',
  method_not_allowed: 'Method not allowed.',
  forbidden: 'Forbidden.',
  service_unavailable: 'The service is temporarily unavailable.',
  internal_error: 'Internal error.',
};
