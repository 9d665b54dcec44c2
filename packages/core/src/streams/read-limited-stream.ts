/**
 * Reads a byte stream to the end, keeping at most `maxBytes`: past the bound the
 * stream is cancelled and this resolves `null`, so a huge or endless body costs at
 * most `maxBytes` of memory. Shared by the Fetch adapter (request bodies) and the
 * geolocation provider (response bodies).
 */
export async function readLimitedStream(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (stream === null) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
