import { fileURLToPath } from 'node:url';

/**
 * The example settings of the browser-client suites: cookie transport, 2-second access
 * tokens (so refreshes happen within a test), login and refresh throttles raised to
 * 1000/min (the tests sign in and refresh far more than a person would), the proxy on
 * loopback trusted (so a test gives each device a public IP with X-Forwarded-For), a
 * fixed-table geolocation provider, and carol for the password-change test.
 */
export const CLIENT_EXAMPLE_ENV: Readonly<Record<string, string>> = {
  SESSAUTH_DEMO_USERS: 'alice:alice-password,bob:bob-password,carol:carol-password',
  JWT_REFRESH_TOKEN_TRANSPORT: 'cookie',
  JWT_ACCESS_TOKEN_EXPIRE_SECONDS: '2',
  JWT_LOGIN_THROTTLE_RATE: '1000/min',
  JWT_REFRESH_THROTTLE_RATE: '1000/min',
  JWT_TRUSTED_PROXY_CIDRS: '127.0.0.1/32',
  JWT_GEOLOCATION_PROVIDER: fileURLToPath(new URL('./fake-geolocation.mjs', import.meta.url)),
};
