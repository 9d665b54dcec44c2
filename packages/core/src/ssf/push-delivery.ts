import type { SsfReceiver } from '../options/ssf-receiver.js';

/** What one push attempt came to. */
export type PushResult =
  | { readonly kind: 'accepted' }
  /** Worth trying again later (a 5xx, 429, a network fault, or a 4xx that a fix on the receiver's side may cure). */
  | { readonly kind: 'transient'; readonly error: string; readonly retryAfterMs: number | null }
  /** Sending the same bytes again can never succeed (RFC 8935 error codes about the SET itself). */
  | { readonly kind: 'permanent'; readonly error: string };

// RFC 8935 s2.4 error codes that describe the SET itself: the same token will be refused again.
// `invalid_key` is left out (the receiver may be behind our key rotation and refetch the JWK
// set), and so are `authentication_failed` / `access_denied` (credentials get fixed).
const PERMANENT_ERRORS: ReadonlySet<string> = new Set(['invalid_request', 'invalid_issuer', 'invalid_audience']);
const MAX_ERROR_BODY = 4096;

/**
 * One RFC 8935 push: POST the SET as `application/secevent+jwt`, 202 Accepted is success; a
 * 400 carries `{"err", "description"}`. Never throws; nothing of the token or the
 * authorization header goes into the result (it is logged).
 */
export async function pushSecurityEvent(stream: SsfReceiver, token: string, timeoutMs: number): Promise<PushResult> {
  let response: Response;
  try {
    response = await fetch(stream.endpointUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/secevent+jwt',
        accept: 'application/json',
        ...(stream.authorizationHeader === undefined ? {} : { authorization: stream.authorizationHeader }),
      },
      body: token,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : 'Error';
    return { kind: 'transient', error: name === 'TimeoutError' ? 'timeout' : 'network_error', retryAfterMs: null };
  }
  if (response.status === 202 || (response.status >= 200 && response.status < 300)) {
    await response.body?.cancel().catch(() => {});
    return { kind: 'accepted' };
  }
  const err = response.status === 400 ? await errorCodeOf(response) : (await response.body?.cancel().catch(() => {}), null);
  const error = err === null ? `http_${response.status}` : `http_400:${err}`;
  if (err !== null && PERMANENT_ERRORS.has(err)) return { kind: 'permanent', error };
  return { kind: 'transient', error, retryAfterMs: retryAfterOf(response.headers.get('retry-after')) };
}

async function errorCodeOf(response: Response): Promise<string | null> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY);
    const body: unknown = JSON.parse(text);
    const err = typeof body === 'object' && body !== null ? (body as { err?: unknown }).err : undefined;
    // Logged: keep it to a short token of safe characters.
    return typeof err === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(err) ? err : null;
  } catch {
    return null;
  }
}

/** Retry-After in seconds (RFC 9110); an HTTP date or anything else is ignored. */
function retryAfterOf(value: string | null): number | null {
  if (value === null || !/^\d{1,7}$/.test(value.trim())) return null;
  return Number(value.trim()) * 1000;
}
