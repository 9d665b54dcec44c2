import { SessauthError } from '../errors/sessauth-error.js';

const BEARER = /^Bearer ([A-Za-z0-9_.~+/=-]+)$/;

/**
 * The token of exactly one `Authorization: Bearer <token>`. Missing (or blank): 401. A
 * second header fails closed with 401, and so does a comma: a token never holds one, and a
 * Fetch runtime joins repeated headers with ", ", so `Bearer x,` must mean the same in every
 * adapter. Any other shape is a malformed request: 400.
 */
export function bearerToken(values: readonly string[] | undefined): string {
  const value = values?.length === 1 ? values[0]! : undefined;
  if (value === undefined || value.includes(',') || value.trim() === '') throw new SessauthError('invalid_token');
  const match = BEARER.exec(value);
  if (match === null) throw new SessauthError('invalid_request');
  return match[1]!;
}

const DPOP = /^DPoP ([A-Za-z0-9_.~+/=-]+)$/;

/**
 * With JWT_DPOP on: the token of exactly one `Authorization: Bearer <token>` or
 * `Authorization: DPoP <token>` (RFC 9449 s7.1), with `bearerToken`'s rules for the rest.
 */
export function presentedAccessToken(values: readonly string[] | undefined): { scheme: 'bearer' | 'dpop'; token: string } {
  const value = values?.length === 1 ? values[0]! : undefined;
  const dpop = value === undefined ? null : DPOP.exec(value);
  if (dpop === null) return { scheme: 'bearer', token: bearerToken(values) };
  return { scheme: 'dpop', token: dpop[1]! };
}
