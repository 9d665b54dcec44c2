import { connect } from 'node:net';
import type { Delivery } from './raw-request.js';

/** What came back on one socket. */
export interface Exchange {
  /** The status of every response read (interim 1xx ones included). */
  readonly statuses: number[];
  /** True when neither a complete answer nor a close came within the deadline. */
  readonly hung: boolean;
}

export interface ExchangeInput {
  readonly port: number;
  readonly bytes: Buffer;
  /** The request's method: a response to HEAD has no body whatever its headers say. */
  readonly method: string;
  readonly delivery: Delivery;
  /** Where an aborted delivery stops, as a fraction of the bytes. */
  readonly abortAt: number;
  /** Half-close after sending (an upload that ends early: the server is waiting for more). */
  readonly halfClose: boolean;
  readonly deadlineMs: number;
}

const HEAD_END = '\r\n\r\n';

/**
 * Statuses of the complete responses at the start of `text`, and whether the last one
 * is complete (Content-Length or a chunked terminator; none for HEAD, 1xx, 204, 304).
 */
function readResponses(text: string, method: string): { statuses: number[]; complete: boolean } {
  const statuses: number[] = [];
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf(HEAD_END, at);
    if (headEnd === -1) return { statuses, complete: false };
    const head = text.slice(at, headEnd);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? Number.NaN);
    if (Number.isNaN(status)) return { statuses, complete: false };
    statuses.push(status);
    at = headEnd + HEAD_END.length;
    if (status < 200) continue;
    if (method === 'HEAD' || status === 204 || status === 304) return { statuses, complete: true };
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length !== null) return { statuses, complete: text.length - at >= Number(length[1]) };
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) return { statuses, complete: text.endsWith('0\r\n\r\n') };
    return { statuses, complete: false };
  }
}

/**
 * Sends a request on a fresh connection to 127.0.0.1 and reads until its answer is
 * complete or the server closes. The socket is not half-closed after a whole request
 * (Node's server drops a response in flight when its client half-closes, and a real
 * client waits); `halfClose` does it on purpose for a body cut short. `abort` writes
 * a prefix of the bytes and destroys the socket without reading.
 */
export function exchange(input: ExchangeInput): Promise<Exchange> {
  const { bytes, delivery } = input;
  return new Promise((resolve) => {
    let received = '';
    let settled = false;
    const socket = connect({ port: input.port, host: '127.0.0.1' });
    const finish = (hung: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statuses: readResponses(received, input.method).statuses, hung });
    };
    const timer = setTimeout(() => finish(true), input.deadlineMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (readResponses(received, input.method).complete) finish(false);
    });
    socket.on('close', () => finish(false));
    // A reset by the server (it may refuse garbage abruptly) is an answer, not a failure.
    socket.on('error', () => finish(false));
    socket.on('connect', () => {
      if (delivery === 'abort') {
        socket.write(bytes.subarray(0, Math.floor(bytes.length * input.abortAt)), () => finish(false));
        return;
      }
      const send = (part: Buffer, last: boolean) => (last && input.halfClose ? socket.end(part) : socket.write(part));
      if (delivery === 'whole') {
        send(bytes, true);
        return;
      }
      const third = Math.ceil(bytes.length / 3);
      send(bytes.subarray(0, third), false);
      setImmediate(() => {
        send(bytes.subarray(third, 2 * third), false);
        setImmediate(() => send(bytes.subarray(2 * third), true));
      });
    });
  });
}
