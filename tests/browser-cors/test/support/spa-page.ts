import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the SPA made, as the page saw it. */
export interface SpaCall {
  readonly step: string;
  readonly status: number;
  readonly accessToken: string | null;
}

/**
 * The SPA: a page on its own origin that runs the seed's browser flow against an API on
 * another origin with `credentials: 'include'` (cookies ride cross-origin only with it).
 * `window.spaFlow(api)` calls GET /csrf/, login, refresh, sessions, logout.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>spa</title></head>
<body><p>An SPA on another origin.</p>
<script>
  window.spaFlow = async (api, username, password) => {
    const calls = [];
    const call = async (step, method, path, headers, body) => {
      const response = await fetch(api + path, { method, credentials: 'include', headers, body });
      const text = await response.text();
      const json = text === '' ? null : JSON.parse(text);
      calls.push({ step, status: response.status, accessToken: json?.access_token ?? null });
      return json;
    };
    const csrf = (await call('csrf', 'GET', '/csrf/', {})).csrf_token;
    const json = { 'Content-Type': 'application/json', 'X-CSRFToken': csrf };
    await call('login', 'POST', '/login/', json, JSON.stringify({ username, password }));
    const access = (await call('refresh', 'POST', '/refresh/', json, '{}')).access_token;
    const bearer = { Authorization: 'Bearer ' + access };
    const sessions = await call('sessions', 'GET', '/sessions/', bearer);
    await call('logout', 'POST', '/logout/', { ...bearer, 'X-CSRFToken': csrf });
    return { calls, sessions };
  };
</script>
</body></html>`;

export interface SpaServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Serves the page at `/` on 127.0.0.1 (opened as http://localhost:<port>), as Vite's dev server would. */
export async function serveSpa(): Promise<SpaServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
