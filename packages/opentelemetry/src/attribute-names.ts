// Attribute names: OpenTelemetry's semantic conventions where one exists (http.*, db.*,
// error.type), `sessauth.*` for what is ours. No attribute ever holds a token, a password,
// a username or an address: an operation is described by its route and its answer only.

/** The templated route as mounted, `/auth/sessions/{id}/` (HTTP semantic conventions). */
export const HTTP_ROUTE = 'http.route';
export const HTTP_REQUEST_METHOD = 'http.request.method';
export const HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
/** The class of failure: the wire `error_code` of an operation, the error's name of a store call. */
export const ERROR_TYPE = 'error.type';
/** The store's database (`postgresql`, `mysql`, `sqlite`, `redis`), when the host names it (database semantic conventions). */
export const DB_SYSTEM_NAME = 'db.system.name';
/** The store port's method (`findSession`, `rotateRefresh`, `hit`...). */
export const DB_OPERATION_NAME = 'db.operation.name';

/** The engine's operation: a route's name (`login`, `refresh`, `list-sessions`...) or `guard`. */
export const SESSAUTH_OPERATION = 'sessauth.operation';
/** `ok`, or the wire `error_code` the operation answered. */
export const SESSAUTH_OUTCOME = 'sessauth.outcome';
/** A login's or a refresh's outcome for the counters: `ok`, `failed` or `throttled`. */
export const SESSAUTH_RESULT = 'sessauth.result';
/** Why sessions ended (`logout`, `reuse`, `security_changed`...). */
export const SESSAUTH_REVOKE_REASON = 'sessauth.revoke.reason';
/** Which store: `session` or `rate-limit`. */
export const SESSAUTH_STORE_ROLE = 'sessauth.store.role';
/** The store's implementation (`MemorySessionStore`, `KyselySessionStore`, `RedisSessionStore`...). */
export const SESSAUTH_STORE_KIND = 'sessauth.store.kind';
