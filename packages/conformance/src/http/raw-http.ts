import { request } from 'node:http';

export interface RawResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  readonly errorCode: string | undefined;
}

/**
 * A request through node:http, for what fetch cannot send: a header repeated on
 * several lines (fetch joins duplicates into one) or no User-Agent at all. An array
 * value goes out as one header line per element.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Readonly<Record<string, string | string[]>> = {},
  body?: string,
): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(path, baseUrl), { method, headers: { ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let errorCode: string | undefined;
        try {
          const parsed = JSON.parse(text) as { error_code?: unknown };
          if (typeof parsed.error_code === 'string') errorCode = parsed.error_code;
        } catch {
          errorCode = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, errorCode });
      });
    });
    outgoing.on('error', reject);
    if (body !== undefined) outgoing.setHeader('content-length', Buffer.byteLength(body));
    outgoing.end(body);
  });
}
