import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { PARSED_BODY_WARNING_CODE, toSessauthRequest, type NodeRequest } from '../src/index.js';
import { listen, reply, type Loopback } from './support/loopback.js';

let server: Loopback | undefined;
const warnings: Error[] = [];
const record = (warning: Error): void => {
  if ((warning as Error & { code?: string }).code === PARSED_BODY_WARNING_CODE) warnings.push(warning);
};
afterEach(async () => {
  process.off('warning', record);
  await server?.close();
  server = undefined;
});

async function drain(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** 'warning' events are emitted on the next tick: wait for one turn of the event loop. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a body parser mounted before the adapter', () => {
  it('warns once per process, naming the fix, however many requests arrive; raw bodies do not warn', async () => {
    process.on('warning', record);
    let mode: 'raw-buffer' | 'parsed' | 'drained' = 'raw-buffer';
    server = await listen(async (req: NodeRequest, res) => {
      const text = await drain(req);
      if (mode === 'raw-buffer') req.body = Buffer.from(text);
      if (mode === 'parsed') req.body = JSON.parse(text) as unknown;
      const bytes = await toSessauthRequest(req).readBody(1024);
      reply(res, 200, Buffer.from(bytes).toString('utf8'));
    });
    const post = async () =>
      (await fetch(`${server!.url}/auth/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a": 1}' })).text();

    expect(await post()).toBe('{"a": 1}');
    await settle();
    expect(warnings).toEqual([]);

    mode = 'parsed';
    expect(await post()).toBe('{"a":1}');
    expect(await post()).toBe('{"a":1}');
    mode = 'drained';
    expect(await post()).toBe('');
    await settle();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('Mount the sessauth adapter before express.json()');
    expect(warnings[0]?.message).toContain("app.use('/api', express.json())");
  });
});
