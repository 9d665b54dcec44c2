import { HttpException } from '@nestjs/common';
import type { SessauthResponse } from '@sessauth/core/adapter';

/**
 * A refusal of SessauthGuard: the core's own answer (status, JSON body with `error_code`, headers
 * such as `WWW-Authenticate` and `Cache-Control`). An HttpException, so a host's catch-all filter
 * still sees the core's status and body; the module's SessauthExceptionFilter sends it byte for byte.
 */
export class SessauthException extends HttpException {
  constructor(
    readonly sessauthResponse: SessauthResponse,
    cause: unknown,
  ) {
    super(parseBody(sessauthResponse.body), sessauthResponse.status, { cause });
  }
}

function parseBody(body: string | null): Record<string, unknown> {
  if (body === null) return {};
  const parsed: unknown = JSON.parse(body);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}
