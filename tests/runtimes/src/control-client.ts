import type { ControlCall } from '../host/engine-setup.js';
import { decodeWire, encodeWire, type WireAnswer } from '../host/wire.js';
import { syncRequest } from './sync-post.js';

/** Unwraps the control endpoint's answer; its failures become errors here. */
function valueOf(text: string, what: string): unknown {
  const answer = decodeWire(text) as WireAnswer;
  if ('error' in answer) throw new Error(`runtime: ${what}: ${answer.error.name}: ${answer.error.message}`);
  return answer.value;
}

/** The runtime's control endpoint, seen from the suite. */
export class ControlClient {
  constructor(readonly url: string) {}

  async request(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.url}${path}`, { method, ...(body === undefined ? {} : { body: encodeWire(body) }) });
    return valueOf(await response.text(), `${method} ${path}`);
  }

  requestNow(method: 'GET' | 'POST', path: string, body?: unknown): unknown {
    const answer = syncRequest(`${this.url}${path}`, method, body === undefined ? undefined : encodeWire(body));
    return valueOf(answer.text, `${method} ${path}`);
  }

  call(path: string, call: ControlCall): Promise<unknown> {
    return this.request('POST', path, call);
  }
}
