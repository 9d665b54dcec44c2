import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

// A worker does the HTTP request while this thread waits on a shared flag: the suites call
// `clock.advance()` and read `logger.lines` synchronously, and the remote engine must have seen
// the one and sent the other before the test's next line runs.
const WORKER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, method, body, flag, port }) => {
  let answer;
  try {
    const response = await fetch(url, { method, body });
    answer = { status: response.status, text: await response.text() };
  } catch (error) {
    answer = { status: 0, text: String(error) };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});`;

let worker: Worker | undefined;

/** An HTTP request made synchronously (at most 10 s); resolves the status and the body text. */
export function syncRequest(url: string, method: 'GET' | 'POST', body?: string): { status: number; text: string } {
  if (worker === undefined) {
    worker = new Worker(WORKER, { eval: true });
    worker.unref();
  }
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ url, method, body, flag, port: port2 }, [port2]);
  const waited = Atomics.wait(flag, 0, 0, 10_000);
  const answer = receiveMessageOnPort(port1)?.message as { status: number; text: string } | undefined;
  port1.close();
  if (waited === 'timed-out' || answer === undefined) throw new Error(`no answer from ${url} within 10 s`);
  if (answer.status === 0) throw new Error(`${url}: ${answer.text}`);
  return answer;
}
