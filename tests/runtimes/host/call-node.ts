import { StoreUnavailableError } from '@sessauth/core';
import type { CallbackCall } from './engine-setup.js';
import { decodeWire, encodeWire, type WireAnswer } from './wire.js';

/** Calls Node's callback server for one app; a failure there is rethrown here (a store fault as a store fault). */
export type CallNode = (target: CallbackCall['target'], method: string, args: readonly unknown[]) => Promise<unknown>;

export function callNodeAt(callbackUrl: string): CallNode {
  return async (target, method, args) => {
    const call: CallbackCall = { target, method, args };
    const response = await fetch(callbackUrl, { method: 'POST', body: encodeWire(call), headers: { 'content-type': 'application/json' } });
    const answer = decodeWire(await response.text()) as WireAnswer;
    if ('error' in answer) {
      if (answer.error.name === 'StoreUnavailableError') throw new StoreUnavailableError(answer.error.message);
      throw new Error(answer.error.message);
    }
    return answer.value;
  };
}
