/** Where the DPoP suite serves its page: on the example's own origin (its cookies and IndexedDB are first-party). */
export const DPOP_PAGE_PATH = '/__dpop__.html';

/** The IndexedDB record of the client's key, as `DpopKeyring` stores it. */
export const DPOP_DATABASE = 'sessauth-dpop';

/**
 * A plain page with `@sessauth/client` (the example's `/sessauth-client.js`) and `dpop: true`.
 * `?transport=body` keeps the refresh token in `sessionStorage` (where an XSS would find it);
 * the default is cookie transport. The client is `window.sessauth`; `window.keyName` names its
 * IndexedDB record (the client's lock name: `sessauth:` and the auth root).
 */
export function dpopPageHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dpop</title></head>
<body><p>@sessauth/client with dpop: true</p>
<script type="module">
  import { createSessauthClient } from '/sessauth-client.js';
  const transport = new URLSearchParams(location.search).get('transport') ?? 'cookie';
  const storage = {
    get: () => sessionStorage.getItem('refresh_token'),
    set: (value) => (value === null ? sessionStorage.removeItem('refresh_token') : sessionStorage.setItem('refresh_token', value)),
  };
  window.keyName = 'sessauth:' + location.origin + '/auth/';
  window.sessauth = createSessauthClient({ dpop: true, transport, autoRefresh: true, ...(transport === 'body' ? { storage } : {}) });
  window.ready = true;
</script>
</body></html>`;
}
