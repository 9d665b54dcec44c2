// The layers of @sessauth/core, top first: the import rule of .dependency-cruiser.cjs and the
// picture in docs/ARCHITECTURE.md (a test holds the two equal). A folder imports only its own
// files and the bands below it.

/** Bands of @sessauth/core, top first. */
const CORE_LAYERS = [
  { band: 'engine', folders: ['engine'], role: 'createSessauth, the request entry (match, pre-checks, dispatch), the server-side session API' },
  { band: 'beside the engine', folders: ['admin', 'openapi'], role: 'the admin listing and the OpenAPI description, both read the endpoint list' },
  { band: 'endpoints', folders: ['endpoints'], role: 'one declaration per endpoint, the pre-checks, the token response, the bearer guard' },
  { band: 'sessions', folders: ['sessions'], role: 'the session domain: authenticate, create, refresh, revoke, end-all, list, events; no HTTP' },
  {
    band: 'services',
    folders: ['tokens', 'rate-limit', 'events', 'password', 'http', 'ssf'],
    role: 'tokens, throttling, the event bus, password hashing, the wire (shapes, headers, cookies, CSRF, body gate, router), the Shared Signals outbox writer and push delivery',
  },
  { band: 'ports', folders: ['store', 'users'], role: 'the storage port (and the memory store), the users port' },
  { band: 'settings', folders: ['options', 'geo'], role: 'the settings table, geolocation providers' },
  { band: 'leaves', folders: ['net', 'ua'], role: 'client addresses and proxies, the User-Agent summary' },
  {
    band: 'base',
    folders: ['errors', 'text', 'time', 'log', 'runtime', 'streams'],
    role: 'errors, text rules, clock and deadlines, the logger, runtime probes, bounded streams',
  },
];

module.exports = { CORE_LAYERS };
