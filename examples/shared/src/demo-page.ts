import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RefreshTokenTransport } from '@sessauth/core';
import type { AssetResponse } from './client-asset.js';

const TEMPLATE = readFileSync(new URL('./demo-page.html', import.meta.url), 'utf8');

/**
 * The page's Content-Security-Policy. Its one inline script and one inline style
 * are allowed by their SHA-256 (the template substitutes only attributes of
 * `<body>`, so both are fixed bytes); everything else it loads comes from this
 * origin: the client module and the API calls. No framing (clickjacking of the
 * sign-in and password forms), no `<base>` or form target elsewhere, and Trusted
 * Types, so no script can reach an HTML sink with a plain string.
 */
const DEMO_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' ${inlineHash('script')}`,
  `style-src ${inlineHash('style')}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
].join('; ');

/**
 * The demo page at `GET /` of every example: plain HTML (`demo-page.html` beside
 * this file) whose module script imports the built client from
 * `/sessauth-client.js`. It walks the browser flow: sign in, the list of devices,
 * sign out one, this one, the others or all, step up when a sign-in is stale,
 * change the password, and silent refresh; with the activity history on (the examples'
 * default), each session's last use, risk-signal badges and folded history. It needs cookie transport; given `transport: 'body'` it says so instead of failing in
 * puzzling ways. Sent with a strict CSP, `nosniff` and no framing.
 */
export function demoPageResponse(prefix: string, transport: RefreshTokenTransport = 'cookie'): AssetResponse {
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DEMO_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      // For browsers without CSP frame-ancestors.
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-cache',
    },
    body: demoPageHtml(prefix, transport),
  };
}

/** The page's HTML alone (the template with the prefix and transport filled in). */
function demoPageHtml(prefix: string, transport: RefreshTokenTransport = 'cookie'): string {
  return TEMPLATE.replaceAll('{{prefix}}', escapeAttribute(prefix)).replaceAll('{{transport}}', transport);
}

/** `'sha256-…'` of the template's one inline `<script …>` or `<style>` element. */
function inlineHash(tag: 'script' | 'style'): string {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`).exec(TEMPLATE);
  if (match === null) throw new Error(`demo-page.html has no inline <${tag}>`);
  return `'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`;
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
