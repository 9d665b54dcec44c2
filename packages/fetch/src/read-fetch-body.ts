import { SessauthError } from '@sessauth/core';
import { readLimitedStream } from '@sessauth/core/adapter';

/** The body of a standard `Request`, at most `maxBytes`; reading stops at the first byte beyond. */
export async function readFetchBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > maxBytes) throw new SessauthError('payload_too_large');
  const bytes = await readLimitedStream(request.body, maxBytes);
  if (bytes === null) throw new SessauthError('payload_too_large');
  return bytes;
}
