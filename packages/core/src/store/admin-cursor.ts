import { base64url } from 'jose';
/** The position of the last row of an admin page: the keyset the next page starts after. */
export interface AdminCursorPosition {
  readonly createdAt: Date;
  readonly id: string;
}

// Session ids are short tokens; a longer cursor is not one of ours.
const MAX_CURSOR_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const PAYLOAD = /^(0|[1-9]\d{0,15}):(.+)$/s;

/**
 * Opaque cursor of `listSessionsForAdmin`: base64url (no padding) of
 * `${createdAt in ms}:${id}`. Every store shares this encoding, so a cursor is
 * never tied to one store's internals and a client cannot read meaning into it.
 */
export function encodeAdminCursor(position: AdminCursorPosition): string {
  return base64url.encode(`${position.createdAt.getTime()}:${position.id}`);
}

/**
 * The position a cursor names, or `null` when it is not one `encodeAdminCursor`
 * produced (bad alphabet, padding, bad UTF-8, negative or non-integer time, no id).
 * Callers answer `null` with a 400, never a store fault.
 */
export function decodeAdminCursor(cursor: string): AdminCursorPosition | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(cursor));
  } catch {
    return null;
  }
  const match = PAYLOAD.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]);
  const id = match[2] as string;
  if (!Number.isSafeInteger(ms) || ms > 8.64e15) return null;
  const position = { createdAt: new Date(ms), id };
  // Only the canonical spelling: one position, one cursor.
  return encodeAdminCursor(position) === cursor ? position : null;
}
