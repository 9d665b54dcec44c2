import { describeAdapterConformance } from '@sessauth/conformance';
import { ADAPTERS } from './adapters.js';
import { ONE_ADAPTER_STORES, STORES } from './stores.js';

/** The cell whose every answer is validated against `@sessauth/core/openapi` (cheap: embedded store). */
const OPENAPI_CELL = { adapter: 'express', store: 'sqlite' } as const;

const pick = (env: string | undefined, all: string[]) =>
  env
    ? env
        .split(',')
        .map((s) => s.trim())
        .filter((s) => all.includes(s))
    : all;

/**
 * One adapter over every store, each cell named `<adapter> x <store>` in the output.
 * Narrow the matrix with SESSAUTH_ADAPTERS=express,koa and SESSAUTH_STORES=memory,postgres.
 * One test file per adapter, so vitest runs the rows in parallel.
 */
export function describeMatrixRow(adapter: keyof typeof ADAPTERS & string): void {
  if (!pick(process.env.SESSAUTH_ADAPTERS, Object.keys(ADAPTERS)).includes(adapter)) return;
  const stores = adapter === 'fetch' ? { ...STORES, ...ONE_ADAPTER_STORES } : STORES;
  for (const store of pick(process.env.SESSAUTH_STORES, Object.keys(stores))) {
    // One full cell also checks every answer against the core's OpenAPI description.
    const checkOpenApi = adapter === OPENAPI_CELL.adapter && store === OPENAPI_CELL.store;
    describeAdapterConformance(
      `${adapter} x ${store}${checkOpenApi ? ' (answers checked against the OpenAPI description)' : ''}`,
      { mountApp: ADAPTERS[adapter]!, makeStore: stores[store]!() },
      { checkOpenApi },
    );
  }
}
