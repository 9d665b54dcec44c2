import { type AdapterSkipEntry, describeAdapterConformance } from '@sessauth/conformance';
import { bundleEntry } from '../src/bundle.js';
import { remoteCell } from '../src/remote-cell.js';
import { startWorkerd } from '../src/workerd-process.js';

const launch = (store: string) => async () => startWorkerd(await bundleEntry('workerd'), store);

const SKIP: AdapterSkipEntry[] = [
  // workerd answers an absolute-form request target (`GET http://host/path HTTP/1.1`, RFC 9112 3.2.2)
  // with its own 500 before any worker code runs (kj/compat/url.c++: "invalid URL"). On Cloudflare
  // the edge terminates HTTP and the worker never sees that form; nothing in a worker can change it.
  'one-answer/absolute-form',
];

describeAdapterConformance('workerd (Miniflare, fetch handler) x memory', remoteCell(launch('memory'), 'fetch'), { skip: SKIP });
describeAdapterConformance(
  'workerd (Miniflare, Hono) x memory, rate limits in Durable Objects',
  remoteCell(launch('memory+durable-object-limits'), 'hono'),
  { skip: SKIP },
);
