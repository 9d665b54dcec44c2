import { describeAdapterConformance } from '@sessauth/conformance';
import { bundleEntry } from '../src/bundle.js';
import { remoteCell } from '../src/remote-cell.js';
import { runtimeCommand, startRuntimeProcess } from '../src/runtime-process.js';

const launch = (store: string) => async () => startRuntimeProcess(runtimeCommand('deno', await bundleEntry('deno')), { SESSAUTH_CELL_STORE: store });

describeAdapterConformance('deno (Deno.serve, fetch handler) x memory', remoteCell(launch('memory'), 'fetch'));
