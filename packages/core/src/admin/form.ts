import type { Engine } from '../endpoints/engine.js';
import { SessauthError } from '../errors/sessauth-error.js';
import { readBodyText } from '../http/read-json-body.js';
import { assertCsrf } from '../http/request-csrf.js';
import { headerValues, soleValue } from '../http/request-headers.js';
import type { SessauthRequest } from '../http/sessauth-request.js';

/** The hidden field of every admin form that carries the masked CSRF token. */
export const CSRF_FIELD = 'csrfmiddlewaretoken';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/**
 * The fields of an HTML form POST: exactly one `Content-Type` of
 * `application/x-www-form-urlencoded` (else 415), a body of at most `maxBytes`
 * (else 413) in valid UTF-8 (else 400). A field sent twice is 400: ambiguous.
 */
export async function readFormFields(request: SessauthRequest, maxBytes: number): Promise<Map<string, string>> {
  const types = headerValues(request.headers, 'content-type');
  const mediaType = (soleValue(types) ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== FORM_MEDIA_TYPE) throw new SessauthError('unsupported_media_type');
  const text = await readBodyText(request, maxBytes);
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (fields.has(name)) throw new SessauthError('invalid_request');
    fields.set(name, value);
  }
  return fields;
}

/**
 * The CSRF check of the admin forms, with the core's rules (Origin or, over HTTPS,
 * Referer; the form's token against the `csrftoken` cookie in constant time).
 * Applied whatever the refresh-token transport: these forms ride on cookies.
 */
export function assertAdminCsrf<U>(engine: Engine<U>, request: SessauthRequest, fields: Map<string, string>): void {
  const token = fields.get(CSRF_FIELD);
  assertCsrf(engine, request, token === undefined ? undefined : [token]);
}
