import type { ServerResponse } from 'node:http';
import type { SessauthResponse } from '@sessauth/core/adapter';

/** Writes a core response; each cookie gets its own `Set-Cookie` line. */
export function writeSessauthResponse(res: ServerResponse, response: SessauthResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.setCookies.length > 0) res.setHeader('set-cookie', [...response.setCookies]);
  if (response.body === null) {
    res.setHeader('content-length', '0');
    res.end();
    return;
  }
  const body = Buffer.from(response.body, 'utf8');
  res.setHeader('content-length', String(body.byteLength));
  res.end(body);
}
