import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import { sendSessauthResponse } from './platform-http.js';
import { SessauthException } from './sessauth-exception.js';

/** Sends a SessauthGuard refusal as the core wrote it (registered by SessauthModule as a global filter). */
@Catch(SessauthException)
export class SessauthExceptionFilter implements ExceptionFilter<SessauthException> {
  catch(exception: SessauthException, host: ArgumentsHost): void {
    sendSessauthResponse(host.switchToHttp().getResponse<object>(), exception.sessauthResponse);
  }
}
