/** A placeholder page until the browser client lands: it says how to drive the API. */
export function demoPageHtml(prefix: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sessauth demo</title></head>
<body>
<h1>sessauth demo</h1>
<p>The API lives under <code>${prefix}/</code>. Sign in with <code>POST ${prefix}/login/</code>
<code>{"username": "alice", "password": "alice-password"}</code>, then call <code>GET /me</code> with
<code>Authorization: Bearer &lt;access_token&gt;</code>.</p>
</body></html>`;
}
