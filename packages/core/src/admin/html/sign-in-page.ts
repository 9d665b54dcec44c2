import { adminDocument } from './layout.js';
import { CSRF_FIELD } from '../form.js';
import { escapeHtml } from './escape.js';

export interface SignInPageInput {
  readonly adminPrefix: string;
  readonly csrfToken: string;
  /** Why the form is shown again (bad password, expired form...); plain text. */
  readonly notice?: string | undefined;
  /** The username typed before, kept so only the password needs typing again. */
  readonly username?: string | undefined;
}

/** The browser sign-in: a plain form, no script; it posts to `<adminPrefix>/sign-in/`. */
export function signInPageHtml(input: SignInPageInput): string {
  const notice = input.notice === undefined ? '' : `<p class="notice" role="alert">${escapeHtml(input.notice)}</p>`;
  return adminDocument(
    'Sign in · sessauth admin',
    `<div class="card"><h1>Sessions admin</h1>
<p class="muted">Sign in with an administrator account to view every session.</p>${notice}
<form method="post" action="${escapeHtml(input.adminPrefix)}/sign-in/">
<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(input.csrfToken)}">
<label>Username<input name="username" autocomplete="username" required maxlength="254" value="${escapeHtml(input.username ?? '')}"></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
<button type="submit">Sign in</button>
</form></div>`,
  );
}

export interface MessagePageInput {
  readonly adminPrefix: string;
  readonly title: string;
  readonly message: string;
  /** Offer the built-in sign-in (not when a host serves the listing behind its own login). @default true */
  readonly signInLink?: boolean;
}

/** A short page for refusals (403, 400, 404, 503): the title and one sentence, escaped. */
export function messagePageHtml(input: MessagePageInput): string {
  return adminDocument(
    `${input.title} · sessauth admin`,
    `<div class="card"><h1>${escapeHtml(input.title)}</h1><p>${escapeHtml(input.message)}</p>
<nav class="pager"><a href="${escapeHtml(input.adminPrefix)}/">Session listing</a>${
      input.signInLink === false ? '' : `<a href="${escapeHtml(input.adminPrefix)}/sign-in/">Sign in with another account</a>`
    }</nav></div>`,
  );
}
