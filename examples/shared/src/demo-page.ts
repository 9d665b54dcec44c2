import { readFileSync } from 'node:fs';
import type { RefreshTokenTransport } from '@sessauth/core';

const TEMPLATE = new URL('./demo-page.html', import.meta.url);

/**
 * The demo page at `GET /` of every example: plain HTML (`demo-page.html` beside
 * this file) whose module script imports the built client from
 * `/sessauth-client.js`. It walks the browser flow: sign in, the list of devices,
 * sign out one, this one or all, and silent refresh. It needs cookie transport;
 * given `transport: 'body'` it says so instead of failing in puzzling ways.
 */
export function demoPageHtml(prefix: string, transport: RefreshTokenTransport = 'cookie'): string {
  return readFileSync(TEMPLATE, 'utf8').replaceAll('{{prefix}}', escapeAttribute(prefix)).replaceAll('{{transport}}', transport);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
