// The public API of @sessauth/opentelemetry. Everything not listed here is internal.

export {
  sessauthOpenTelemetry,
  INSTRUMENTATION_NAME,
  type SessauthOpenTelemetry,
  type SessauthOpenTelemetryOptions,
} from './sessauth-open-telemetry.js';
