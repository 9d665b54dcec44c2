// `@sessauth/conformance/faults`: tools for fault-injection tests (no vitest import).
export { startFaultProxy, type FaultConnection, type FaultProxy, type FaultProxyOptions, type FaultProxyStats } from './fault-proxy.js';
export type { FaultDirection, FaultMode } from './fault-mode.js';
