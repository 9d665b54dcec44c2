import 'reflect-metadata';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { ConsoleLogger, Logger as NestLogger } from '@nestjs/common';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import winston from 'winston';
import { createSessauth } from '../src/engine/create-sessauth.js';
import type { Logger } from '../src/log/logger.js';
import { fromNestLogger } from '../src/log/nest-logger.js';
import { fromPino } from '../src/log/pino-logger.js';
import { fromWinston } from '../src/log/winston-logger.js';
import { createPasswordAuthenticator } from '../src/password/password-authenticator.js';
import { MemorySessionStore } from '../src/store/memory-store.js';
import { sessauthRequest, plainHasher, testUsers, type TestUser } from './helpers/sessauth-harness.js';

/** A stream that keeps every line written to it. */
function lineSink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return { stream, lines };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A real engine with `logger`, driven into a throttle refusal (a warn line) with a login past its budget. */
async function throttledLogin(logger: Logger): Promise<void> {
  const auth = await createSessauth<TestUser>({
    options: {
      secretKey: 'a-test-secret-that-is-long-enough-for-hs256!',
      issuer: 'https://issuer.test',
      audience: 'test',
      loginThrottleRate: '1/min',
    },
    store: new MemorySessionStore(),
    users: testUsers,
    authenticator: createPasswordAuthenticator({ users: testUsers, hasher: plainHasher }),
    geolocation: null,
    logger,
  });
  const login = () =>
    auth.handle(
      sessauthRequest({
        method: 'POST',
        path: '/auth/login/',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice', password: 'wrong' }),
      }),
    );
  expect((await login())?.status).toBe(401);
  expect((await login())?.status).toBe(429);
}

describe('fromPino', () => {
  it('writes the event as message and field, the fields beside it, at pino levels; the engine logs through it', async () => {
    const sink = lineSink();
    const logger = fromPino(pino({ level: 'debug' }, sink.stream));
    logger.info?.('login', { user_id: 'u-1' });
    logger.debug?.('client_aborted', {});
    await throttledLogin(logger);
    await until(() => sink.lines.length >= 3);
    const records = sink.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ level: 30, msg: 'login', event: 'login', user_id: 'u-1' });
    expect(records[1]).toMatchObject({ level: 20, msg: 'client_aborted', event: 'client_aborted' });
    expect(records.find((record) => record.event === 'rate_limited')).toMatchObject({ level: 40, msg: 'rate_limited', scope: 'login' });
  });

  it('fits a child logger, and pino’s level filters', async () => {
    const sink = lineSink();
    const logger = fromPino(pino({ level: 'warn' }, sink.stream).child({ module: 'auth' }));
    logger.info?.('login', {});
    logger.error('store_failed', { operation: 'findSession' });
    await until(() => sink.lines.length >= 1);
    expect(sink.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 50, module: 'auth', event: 'store_failed', operation: 'findSession' }),
    ]);
  });
});

describe('fromWinston', () => {
  it('writes the event as message and the fields as metadata, at winston levels; the engine logs through it', async () => {
    const sink = lineSink();
    const logger = fromWinston(
      winston.createLogger({ level: 'debug', format: winston.format.json(), transports: [new winston.transports.Stream({ stream: sink.stream })] }),
    );
    logger.info?.('login', { user_id: 'u-1' });
    logger.debug?.('client_aborted');
    await throttledLogin(logger);
    await until(() => sink.lines.some((line) => line.includes('rate_limited')));
    const records = sink.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ level: 'info', message: 'login', event: 'login', user_id: 'u-1' });
    expect(records[1]).toMatchObject({ level: 'debug', message: 'client_aborted', event: 'client_aborted' });
    expect(records.find((record) => record.event === 'rate_limited')).toMatchObject({ level: 'warn', message: 'rate_limited', scope: 'login' });
  });
});

describe('fromNestLogger', () => {
  afterEach(() => vi.restoreAllMocks());

  function capture(): string[] {
    const written: string[] = [];
    const keep = (chunk: unknown): boolean => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(keep);
    vi.spyOn(process.stderr, 'write').mockImplementation(keep);
    return written;
  }

  it("Nest's ConsoleLogger in JSON mode: one record per event, level and context kept; the engine logs through it", async () => {
    const written = capture();
    const logger = fromNestLogger(new ConsoleLogger('Sessauth', { json: true, logLevels: ['debug', 'log', 'warn', 'error'] }));
    logger.info?.('login', { user_id: 'u-1' });
    await throttledLogin(logger);
    vi.restoreAllMocks();
    const records = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ level: 'log', context: 'Sessauth', message: 'login {"user_id":"u-1"}' });
    const refusal = records.find((record) => String(record.message).startsWith('rate_limited '));
    expect(refusal).toMatchObject({ level: 'warn', context: 'Sessauth' });
    expect(JSON.parse(String(refusal!.message).slice('rate_limited '.length))).toMatchObject({ scope: 'login', limit: 1 });
  });

  it('the Logger facade (new Logger(context)) fits as well, one line per event', () => {
    const written = capture();
    fromNestLogger(new NestLogger('Sessauth')).warn('csrf_failed', { reason: 'no_cookie' });
    vi.restoreAllMocks();
    expect(written).toHaveLength(1);
    expect(stripVTControlCharacters(written[0]!)).toMatch(/WARN \[Sessauth\] csrf_failed \{"reason":"no_cookie"\}\n$/);
  });
});
