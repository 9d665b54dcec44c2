/** What a request did, in the words of the contract. */
export type OperationKind =
  | 'login'
  | 'refresh'
  | 'me'
  | 'list'
  | 'logout'
  /** A refresh token that already refreshed once, presented again on purpose. */
  | 'replay'
  /** The access token of a session whose revocation was just acknowledged. */
  | 'probe'
  /** After the heal: the last access token issued for each session. */
  | 'committed-check';

/** A pair of tokens the server returned, and the session they belong to. */
export interface IssuedTokens {
  readonly sid: string;
  readonly access: string;
  readonly refresh: string;
}

/** One request and its answer (Jepsen's "invoke" and "complete" in one record). */
export interface HistoryEntry {
  readonly seq: number;
  readonly client: number;
  readonly kind: OperationKind;
  /** The session the request is about (from the presented token), if any. */
  readonly sid: string | null;
  /** The refresh token presented (refresh, replay). */
  readonly presented: string | null;
  /**
   * The client's chain was clean when it sent this: every earlier write of the
   * session was answered (no 503 or lost answer), and the client itself revoked
   * nothing. Such a session must still be alive.
   */
  readonly expectLive: boolean;
  readonly start: number;
  readonly end: number;
  readonly status: number | 'timeout' | 'error';
  readonly code: string | null;
  /** The raw body, cut to 300 characters (the 503 body is checked byte for byte). */
  readonly body: string;
  readonly issued: IssuedTokens | null;
}

/** The history of one scenario, in completion order. */
export class History {
  readonly entries: HistoryEntry[] = [];
  #seq = 0;

  add(entry: Omit<HistoryEntry, 'seq'>): HistoryEntry {
    const full = { ...entry, seq: (this.#seq += 1) };
    this.entries.push(full);
    return full;
  }

  /** Requests per second over the whole history, and how the statuses were spread. */
  summary(): { requests: number; perSecond: number; statuses: Record<string, number> } {
    const statuses: Record<string, number> = {};
    for (const entry of this.entries) statuses[String(entry.status)] = (statuses[String(entry.status)] ?? 0) + 1;
    const first = Math.min(...this.entries.map((e) => e.start));
    const last = Math.max(...this.entries.map((e) => e.end));
    const seconds = Math.max(0.001, (last - first) / 1000);
    return { requests: this.entries.length, perSecond: Math.round(this.entries.length / seconds), statuses };
  }
}

/** What the recorder needs to know about a request besides its answer. */
export interface RequestMeta {
  readonly client: number;
  readonly kind: OperationKind;
  readonly sid: string | null;
  readonly presented?: string | null;
  readonly expectLive?: boolean;
}

/** Records an answer (see `send` in wire.ts) with what it was about. */
export function record(
  history: History,
  meta: RequestMeta,
  answer: Pick<HistoryEntry, 'start' | 'end' | 'status' | 'code' | 'body' | 'issued'>,
): HistoryEntry {
  return history.add({
    client: meta.client,
    kind: meta.kind,
    sid: meta.sid ?? answer.issued?.sid ?? null,
    presented: meta.presented ?? null,
    expectLive: meta.expectLive ?? false,
    start: answer.start,
    end: answer.end,
    status: answer.status,
    code: answer.code,
    body: answer.body,
    issued: answer.issued,
  });
}
