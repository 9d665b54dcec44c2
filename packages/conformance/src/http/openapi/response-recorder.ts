// Opt-in recording of what the conformance clients receive, so a check can run after each
// test (the OpenAPI one). Keyed by the app's origin: every client of an app, the HttpClient
// and raw node:http requests alike, records without being handed anything.

/** One answer as the client saw it. */
export interface RecordedResponse {
  readonly method: string;
  /** The request path, without the query. */
  readonly path: string;
  readonly status: number;
  /** Lower-cased names; Set-Cookie left out (see `setCookieNames`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly setCookieNames: readonly string[];
}

const recorders = new Map<string, RecordedResponse[]>();

/** Starts recording the answers of the app at `baseUrl` into the returned list. */
export function recordResponsesOf(baseUrl: string): RecordedResponse[] {
  const list: RecordedResponse[] = [];
  recorders.set(new URL(baseUrl).origin, list);
  return list;
}

export function stopRecording(baseUrl: string): void {
  recorders.delete(new URL(baseUrl).origin);
}

/** Records one answer when its app is being recorded; a no-op otherwise. */
export function recordResponse(url: URL, response: Omit<RecordedResponse, 'path'>): void {
  recorders.get(url.origin)?.push({ ...response, path: url.pathname });
}

/** The name of each `Set-Cookie` value. */
export function cookieNames(setCookies: readonly string[]): string[] {
  return setCookies.map((line) => line.slice(0, Math.max(0, line.indexOf('='))).trim());
}
