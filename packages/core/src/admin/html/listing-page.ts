import type { AdminSessionPage, SessionRecord } from '../../store/store-port.js';
import { CSRF_FIELD } from '../form.js';
import { adminDocument } from './layout.js';
import { listingQueryString, type AdminListingParams } from '../query.js';
import { adminSessionStatus, describeLocation } from '../session-view.js';
import { escapeHtml } from './escape.js';
import type { ActivityEntry } from '../../store/activity-port.js';
import { lastClientOf } from '../../sessions/session-activity.js';
import { signalsOf } from '../page-activity.js';

export interface ListingPageInput {
  /** Where the listing is served, without the trailing slash. */
  readonly basePath: string;
  /** The signed-in admin's user id. */
  readonly viewerId: string;
  readonly params: AdminListingParams;
  readonly page: AdminSessionPage;
  /** Each listed session's activity history (JWT_SESSION_ACTIVITY); null: the column is not shown. */
  readonly activity: ReadonlyMap<string, readonly ActivityEntry[]> | null;
  readonly now: Date;
  /** Set when the admin came through the browser sign-in: the page then offers sign-out. */
  readonly signOutCsrfToken: string | null;
}

const PAGE_SIZES = [10, 25, 50, 100, 200];

/** The read-only listing: filters (GET form), the table, and keyset paging links. Every value is escaped. */
export function listingPageHtml(input: ListingPageInput): string {
  const { basePath, params, page } = input;
  const base = `${basePath}/`;
  const filters = { userId: params.userId, status: params.status, limit: params.limit };
  const next =
    page.nextCursor === null
      ? ''
      : `<a rel="next" href="${escapeHtml(base + listingQueryString({ ...filters, after: page.nextCursor }))}">Next page →</a>`;
  const first = params.after === undefined ? '' : `<a href="${escapeHtml(base + listingQueryString(filters))}">← First page</a>`;
  const rows = page.sessions.map((session) => rowHtml(session, input)).join('\n');
  const columns = input.activity === null ? 8 : 9;
  const empty = page.sessions.length === 0 ? `<tr><td colspan="${columns}" class="muted">No session matches.</td></tr>` : '';
  const activityHeading = input.activity === null ? '' : '<th>Activity</th>';
  return adminDocument(
    'Sessions · sessauth admin',
    `${headerHtml(input)}
<main>
${filtersHtml(base, params)}
<p class="muted">${page.sessions.length} session${page.sessions.length === 1 ? '' : 's'} on this page, newest first${params.after === undefined ? '' : ' (a later page)'}.</p>
<table>
<thead><tr><th>Session</th><th>User</th><th>Created</th><th>Last activity</th><th>IP</th><th>Browser</th><th>Location</th>${activityHeading}<th>Status</th></tr></thead>
<tbody>
${rows}${empty}
</tbody>
</table>
<nav class="pager">${first}${next}</nav>
</main>`,
  );
}

function headerHtml(input: ListingPageInput): string {
  const signOut =
    input.signOutCsrfToken === null
      ? ''
      : `<form method="post" action="${escapeHtml(input.basePath)}/sign-out/"><input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(input.signOutCsrfToken)}"><button type="submit" class="quiet">Sign out</button></form>`;
  return `<header><h1>Sessions</h1><div><span>Signed in as <code>${escapeHtml(input.viewerId)}</code></span>${signOut}</div></header>`;
}

function filtersHtml(base: string, params: AdminListingParams): string {
  const option = (value: string, label: string, selected: boolean): string =>
    `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const sizes = PAGE_SIZES.includes(params.limit) ? PAGE_SIZES : [...PAGE_SIZES, params.limit].sort((a, b) => a - b);
  return `<form class="filters" method="get" action="${escapeHtml(base)}">
<label>User id<input name="user" value="${escapeHtml(params.userId ?? '')}" maxlength="256"></label>
<label>Status<select name="status">${option('', 'All', params.status === undefined)}${option('active', 'Active', params.status === 'active')}${option('revoked', 'Revoked or expired', params.status === 'revoked')}</select></label>
<label>Per page<select name="limit">${sizes.map((size) => option(String(size), String(size), size === params.limit)).join('')}</select></label>
<button type="submit">Filter</button><a href="${escapeHtml(base)}">Clear filters</a>
</form>`;
}

function rowHtml(session: SessionRecord, input: ListingPageInput): string {
  const status = adminSessionStatus(session, input.now);
  const endedAt = status === 'revoked' ? session.expiredAt : status === 'expired' ? session.expiresAt : null;
  const userLink = `${input.basePath}/${listingQueryString({ userId: session.userId, limit: input.params.limit })}`;
  const history = input.activity === null ? null : (input.activity.get(session.id) ?? []);
  return `<tr data-session-id="${escapeHtml(session.id)}" data-status="${status}">
<td><code>${escapeHtml(session.id)}</code></td>
<td class="user"><a href="${escapeHtml(userLink)}">${escapeHtml(session.userId)}</a></td>
<td>${timeHtml(session.createdAt)}</td>
<td>${timeHtml(session.lastActivityAt)}${history === null ? '' : lastClientHtml(session, history)}</td>
<td>${session.ipAddress === null ? '<span class="muted">not kept</span>' : `<code>${escapeHtml(session.ipAddress)}</code>`}</td>
<td class="ua">${escapeHtml(session.browser ?? 'Unknown')}<small>${escapeHtml(session.userAgent ?? '')}</small></td>
<td>${session.location === null ? '<span class="muted">—</span>' : escapeHtml(describeLocation(session.location))}</td>
${history === null ? '' : `<td class="activity">${activityHtml(history)}</td>\n`}<td><span class="badge ${status}">${status}</span>${endedAt === null ? '' : ` <small>${timeHtml(endedAt)}</small>`}</td>
</tr>`;
}

const SIGNAL_LABELS: Readonly<Record<string, string>> = {
  new_device: 'new device',
  new_network: 'new network',
  new_country: 'new country',
  impossible_travel: 'impossible travel',
  failed_logins_then_success: 'failed logins, then success',
};

const KIND_LABELS: Readonly<Record<ActivityEntry['kind'], string>> = {
  created: 'signed in',
  refreshed: 'used (refreshed)',
  stepped_up: 'stepped up',
  renamed: 'renamed',
  revoked: 'revoked',
  reuse_detected: 'refresh token reused',
  risk_signal: 'risk signal',
};

/** The last client recorded, under the last-activity time, when it is not the login's. */
function lastClientHtml(session: SessionRecord, history: readonly ActivityEntry[]): string {
  const { last } = lastClientOf(session, history);
  const from = [last.ipAddress !== session.ipAddress ? last.ipAddress : null, last.browser !== session.browser ? last.browser : null];
  const shown = from.filter((part): part is string => part !== null);
  return shown.length === 0 ? '' : `<small class="last-client">from ${escapeHtml(shown.join(' · '))}</small>`;
}

/** The signal badges, then the history (newest first) folded in a `<details>`: no script needed. */
function activityHtml(history: readonly ActivityEntry[]): string {
  const badges = signalsOf(history)
    .map((signal) => `<span class="badge signal" data-signal="${escapeHtml(signal)}">${escapeHtml(SIGNAL_LABELS[signal] ?? signal)}</span>`)
    .join(' ');
  if (history.length === 0) return `${badges}<span class="muted">none kept</span>`;
  const items = [...history]
    .reverse()
    .map((entry) => {
      const place = entry.location === null ? '' : describeLocation(entry.location);
      const where = [entry.ipAddress, entry.browser, place].filter((part) => part !== null && part !== '').join(' · ');
      const detail =
        entry.detail === null
          ? ''
          : ` <b>${escapeHtml(entry.kind === 'risk_signal' ? (SIGNAL_LABELS[entry.detail] ?? entry.detail) : entry.detail)}</b>`;
      return `<li data-kind="${escapeHtml(entry.kind)}">${timeHtml(entry.at)} ${escapeHtml(KIND_LABELS[entry.kind] ?? entry.kind)}${detail}${where === '' ? '' : ` <small>${escapeHtml(where)}</small>`}</li>`;
    })
    .join('');
  const count = `${history.length} event${history.length === 1 ? '' : 's'}`;
  return `${badges}<details><summary>${count}</summary><ol>${items}</ol></details>`;
}

function timeHtml(date: Date): string {
  const iso = date.toISOString();
  // Two unbreakable halves: a narrow column wraps between date and time, never inside one.
  return `<time datetime="${iso}"><span>${iso.slice(0, 10)}</span> <span>${iso.slice(11, 19)} UTC</span></time>`;
}
