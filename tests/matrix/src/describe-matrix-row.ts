import { describeAdapterConformance } from '@sessauth/conformance';
import { ADAPTERS } from './adapters.js';
import { STORES } from './stores.js';

const pick = (env: string | undefined, all: string[]) => (env ? env.split(',').map((s) => s.trim()).filter((s) => all.includes(s)) : all);

/**
 * One adapter over every store, each cell named `<adapter> x <store>` in the output.
 * Narrow the matrix with SESSAUTH_ADAPTERS=express,koa and SESSAUTH_STORES=memory,postgres.
 * One test file per adapter, so vitest runs the rows in parallel.
 */
export function describeMatrixRow(adapter: keyof typeof ADAPTERS & string): void {
  if (!pick(process.env.SESSAUTH_ADAPTERS, Object.keys(ADAPTERS)).includes(adapter)) return;
  for (const store of pick(process.env.SESSAUTH_STORES, Object.keys(STORES))) {
    describeAdapterConformance(`${adapter} x ${store}`, { mountApp: ADAPTERS[adapter]!, makeStore: STORES[store]!() });
  }
}
