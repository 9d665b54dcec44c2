import type { SessauthResponse } from '../../http/sessauth-request.js';
import { escapeHtml } from './escape.js';
import { NO_STORE } from '../../http/response.js';

// The only style of the admin pages. It is allowed by its hash in the CSP, so the
// pages need no extra route and no inline script can run.
const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.8rem 1.5rem;background:#24292f;color:#fff}
header h1{font-size:1.1rem;margin:0}header div{display:flex;align-items:center}header form{margin:0}header span{opacity:.85;margin-right:.8rem}
main{padding:1.2rem 1.5rem;max-width:1400px}
form.filters{display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-end;margin-bottom:1rem}
label{display:flex;flex-direction:column;font-size:.8rem;color:#57606a;gap:.2rem}
input,select{font:inherit;padding:.3rem .5rem;border:1px solid #d0d7de;border-radius:6px;background:#fff}
button{font:inherit;padding:.35rem .9rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
button.quiet{background:transparent;border-color:#8c959f;color:inherit}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d0d7de}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #d8dee4;vertical-align:top}
th{background:#f6f8fa;font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:#57606a}
td.ua{min-width:14rem;max-width:22rem;overflow-wrap:anywhere}time span,td.user{white-space:nowrap}form.filters a{align-self:center}td.ua small{display:block;color:#57606a}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.8rem;font-weight:600}
.signal{background:#fff1e5;color:#9a3412;margin:0 .2rem .2rem 0}.signal[data-signal=impossible_travel]{background:#ffebe9;color:#a40e26}
td.activity{min-width:12rem}details summary{cursor:pointer;color:#0969da}details ol{margin:.3rem 0 0;padding-left:1.1rem;font-size:.85rem}details li small,small.last-client{display:block;color:#57606a}
.active{background:#dafbe1;color:#116329}.revoked{background:#ffebe9;color:#a40e26}.expired{background:#eaeef2;color:#57606a}
nav.pager{display:flex;gap:1rem;margin-top:1rem}a{color:#0969da}
.notice{padding:.7rem 1rem;border-radius:6px;background:#fff8c5;border:1px solid #d4a72c;margin-bottom:1rem}
.card{max-width:22rem;margin:3rem auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.5rem}
.card form{display:flex;flex-direction:column;gap:.8rem}.muted{color:#57606a}
`;

let styleHash: Promise<string> | undefined;

/** `sha256-<base64>` of the stylesheet, computed once. */
function styleSource(): Promise<string> {
  styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(STYLE)).then((digest) => {
    let binary = '';
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

/**
 * The headers of every admin HTML page: a CSP that allows no script at all, only
 * the one stylesheet, forms posting to this origin only, no framing; and a
 * referrer policy that keeps `Origin` on form posts (`no-referrer` would turn it
 * into `null` and fail the CSRF check).
 */
export async function adminHtmlHeaders(): Promise<Record<string, string>> {
  return {
    'content-security-policy': `default-src 'none'; style-src ${await styleSource()}; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
}

/** A whole page; `title` is escaped here, `body` must already be safe HTML. */
export function adminDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>${body}</body></html>`;
}

/** An HTML response with the admin headers and any cookies to set. */
export async function adminHtmlResponse(
  status: number,
  html: string,
  setCookies: readonly string[] = [],
  extra: Record<string, string> = {},
): Promise<SessauthResponse> {
  return {
    status,
    headers: { ...NO_STORE, 'content-type': 'text/html; charset=utf-8', ...(await adminHtmlHeaders()), ...extra },
    setCookies,
    body: html,
  };
}

/** 303 See Other after a form post, so a reload does not post again. */
export function seeOther(location: string, setCookies: readonly string[]): SessauthResponse {
  return { status: 303, headers: { ...NO_STORE, location }, setCookies, body: null };
}
