import { readLimitedStream } from '../streams/read-limited-stream.js';

/**
 * The response body as UTF-8 text, reading at most `maxBytes` (counted after
 * decompression, which `fetch` does while streaming): past the bound the stream
 * is cancelled and this rejects, so a huge or endless answer costs at most
 * `maxBytes` of memory. A declared `Content-Length` above the bound is refused
 * before reading anything.
 */
export async function readLimitedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error('response too large');
  }
  const bytes = await readLimitedStream(response.body, maxBytes);
  if (bytes === null) throw new Error('response too large');
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
