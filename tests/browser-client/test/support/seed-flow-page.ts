/** One call the page made, as the page saw it. */
export interface SeedFlowCall {
  readonly step: string;
  readonly status: number;
  /** The `X-CSRFToken` the page sent, if any. */
  readonly csrf: string | null;
  readonly accessToken: string | null;
}

/** Where the test serves the page: on the example's own origin, so its cookies are first-party. */
export const SEED_FLOW_PAGE_PATH = '/__seed-flow-test__.html';

/**
 * A plain page written from the seed's words alone ("Browser flow", steps 1-3), the
 * way a JWT Ninja client is written: no @sessauth/client. `window.seedFlow(username,
 * password)` calls `GET /auth/csrf/` once, keeps the masked `csrf_token` of that one
 * answer and sends it in `X-CSRFToken` on the login and on five refreshes; the
 * browser's cookie jar does the rest. It never reads the login response's
 * `csrf_token`. Then it lists the sessions and logs out.
 */
export function seedFlowPageHtml(prefix: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>seed flow</title></head>
<body><p>The seed's browser flow, by hand.</p>
<script>
  const PREFIX = ${JSON.stringify(prefix)};
  window.seedFlow = async (username, password) => {
    const calls = [];
    const call = async (step, method, path, headers, body) => {
      const response = await fetch(PREFIX + path, { method, credentials: 'include', headers, body });
      const text = await response.text();
      const json = text === '' ? null : JSON.parse(text);
      calls.push({ step, status: response.status, csrf: headers['X-CSRFToken'] ?? null, accessToken: json?.access_token ?? null });
      return json;
    };
    // Step 1: one GET /auth/csrf/; its masked value is kept for every later request.
    const csrf = (await call('csrf', 'GET', '/csrf/', {})).csrf_token;
    const json = { 'Content-Type': 'application/json', 'X-CSRFToken': csrf };
    // Step 2: that value on the login and on every refresh; the refresh token rides in its cookie.
    let access = (await call('login', 'POST', '/login/', json, JSON.stringify({ username, password }))).access_token;
    for (let n = 1; n <= 5; n++) access = (await call('refresh ' + n, 'POST', '/refresh/', json, '{}'))?.access_token ?? access;
    const bearer = { Authorization: 'Bearer ' + access };
    const sessions = await call('sessions', 'GET', '/sessions/', bearer);
    await call('logout', 'POST', '/logout/', { ...bearer, 'X-CSRFToken': csrf });
    return { calls, sessions, csrfFromStepOne: csrf };
  };
</script>
</body></html>`;
}
