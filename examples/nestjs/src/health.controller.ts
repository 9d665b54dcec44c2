import { Controller, Get } from '@nestjs/common';
import { Public } from '@sessauth/nestjs';

/** A route anyone may call: @Public() lets it past the global guard. */
@Controller('health')
export class HealthController {
  @Get()
  @Public()
  health() {
    return { ok: true };
  }
}
