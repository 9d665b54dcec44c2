import { connect } from 'node:net';

export interface SocketOutcome {
  /** Everything the server sent before it closed the connection. */
  readonly received: string;
  /** Whether the server closed the connection within the bound. */
  readonly closed: boolean;
}

/**
 * Opens a raw connection to 127.0.0.1:`port`, writes `head` at once, then one byte
 * of `body` per `everyMs` (a slow client), and reports whether the server closed
 * the connection within `boundMs`. The client itself never closes it early: a
 * server that keeps waiting is seen as `closed: false` when the bound is reached.
 */
export function trickle(port: number, head: string, body: string, everyMs: number, boundMs: number): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let sent = 0;
    const finish = (closed: boolean): void => {
      clearInterval(drip);
      clearTimeout(bound);
      socket.destroy();
      resolve({ received, closed });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    // A reset after the server gave up is a close too.
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.write(head);
    const drip = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body[sent++]!);
    }, everyMs);
    const bound = setTimeout(() => finish(false), boundMs);
  });
}

/** A request head for `method path` with `headers`, ending the header block. */
export function requestHead(method: string, path: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...lines, '', ''].join('\r\n');
}

/** The status code and lower-cased headers of the first response in `raw`. */
export function parseResponseHead(raw: string): { status: number; headers: Map<string, string> } {
  const [statusLine = '', ...lines] = raw.split('\r\n\r\n')[0]!.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}
