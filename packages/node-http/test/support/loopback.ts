import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 at a free port, running `handler` for every request. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void): Promise<Loopback> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      res.statusCode = 599; // the test's own handler failed: make it visible to the client
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Sends `head` (request line and headers, CRLF-separated, no final blank line) and then
 * each of `chunks` as it is, on one raw socket, and resolves the whole answer as text
 * when the server closes or after the first full response. Lets a test send what
 * fetch would never send: absolute-form targets, repeated headers, a chunked body.
 */
export function rawExchange(port: number, head: string, chunks: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => {
      answer += data;
      // One response is enough: with Content-Length, stop once the body is in.
      const end = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(answer);
      if (end !== -1 && length !== null && answer.length >= end + 4 + Number(length[1])) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
    for (const chunk of chunks) socket.write(chunk);
  });
}

/** The status code of a raw HTTP/1.1 answer. */
export function statusOf(answer: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
}

/** The body of a raw HTTP/1.1 answer sent with Content-Length. */
export function bodyOf(answer: string): string {
  return answer.slice(answer.indexOf('\r\n\r\n') + 4);
}

/** Answers with a Content-Length, so `bodyOf` reads the body as sent (no chunked framing). */
export function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(text)) }).end(text);
}
