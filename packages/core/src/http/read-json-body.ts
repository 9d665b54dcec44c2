import { RequestAbortedError, SessauthError } from '../errors/sessauth-error.js';
import { isJsonContentType } from './content-type.js';
import { headerValues } from './request-headers.js';
import type { SessauthRequest } from './sessauth-request.js';

/** The 415 gate, checked before anything else on login and refresh. */
export function assertJsonContentType(request: SessauthRequest): void {
  if (!isJsonContentType(headerValues(request.headers, 'content-type'))) {
    throw new SessauthError('unsupported_media_type');
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The body as text: at most `maxBytes` (else 413), valid UTF-8 (else 400). */
export async function readBodyText(request: SessauthRequest, maxBytes: number): Promise<string> {
  const bytes = await request.readBody(maxBytes).catch((error: unknown) => {
    // The adapter's own refusals (413) stand; a stream that failed is a client that left.
    throw error instanceof SessauthError ? error : new RequestAbortedError({ cause: error });
  });
  if (bytes.byteLength > maxBytes) throw new SessauthError('payload_too_large');
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new SessauthError('invalid_request', { cause });
  }
}

/**
 * Reads and parses the JSON object body, bounded by `maxBytes`. An empty body is
 * 415 like a missing content type (the seed); bad UTF-8, bad JSON or a non-object
 * is 400 `invalid_request`.
 */
export async function readJsonObject(request: SessauthRequest, maxBytes: number): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === '') throw new SessauthError('unsupported_media_type');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new SessauthError('invalid_request', { cause });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SessauthError('invalid_request');
  }
  return parsed as Record<string, unknown>;
}
