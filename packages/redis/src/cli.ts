#!/usr/bin/env node
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRedisClient } from './create-redis-client.js';
import { DEFAULT_KEY_PREFIX } from './keys.js';
import { RedisSessionStore } from './redis-store.js';

const USAGE = `Usage: sessauth-redis <command> [options]

Commands:
  purge           delete revoked and ended sessions under a key prefix, and the index
                  entries of sessions already gone (TTLs remove most keys on their own)

Options:
  --url <url>     redis://[user:password@]host:port[/db], or rediss://... for TLS
                  (default: $REDIS_URL)
  --prefix <p>    the store's key prefix (default ${DEFAULT_KEY_PREFIX})
  -v, --version   print the version
  -h, --help      show this help

Exit codes: 0 done, 1 Redis failed (unreachable, refused), 2 bad usage.`;

/** Exit codes, as documented in USAGE. */
const OK = 0;
const FAILED = 1;
const USAGE_ERROR = 2;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`sessauth-redis: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return USAGE_ERROR;
  }
  const { values, positionals } = parsed;
  if (values.version === true) {
    console.log(packageVersion());
    return OK;
  }
  const command = positionals[0];
  if (values.help === true || command === undefined) {
    console.log(USAGE);
    return values.help === true ? OK : USAGE_ERROR;
  }
  if (command !== 'purge' || positionals.length > 1) {
    console.error(`sessauth-redis: unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
    return USAGE_ERROR;
  }
  const url = values.url ?? process.env.REDIS_URL;
  if (url === undefined || url === '') {
    console.error(`sessauth-redis: --url is required (or set REDIS_URL)\n\n${USAGE}`);
    return USAGE_ERROR;
  }
  if (!/^rediss?:\/\/./i.test(url)) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
    console.error(
      `sessauth-redis: --url must start with redis:// or rediss:// (got ${scheme === undefined ? 'no scheme' : `${scheme}:`})\n\n${USAGE}`,
    );
    return USAGE_ERROR;
  }
  const client = await createRedisClient(url);
  try {
    const store = new RedisSessionStore({ client, keyPrefix: values.prefix ?? DEFAULT_KEY_PREFIX });
    const purged = await store.purgeExpired(new Date());
    console.log(`sessauth-redis: purged ${purged} sessions under prefix ${JSON.stringify(values.prefix ?? DEFAULT_KEY_PREFIX)}`);
    return OK;
  } finally {
    client.disconnect();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      prefix: { type: 'string' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The version of this package: package.json sits one level above both src/ and dist/. */
function packageVersion(): string {
  const here = dirname(realpathSync(process.argv[1] ?? '.'));
  return (JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // The message only: createRedisClient's names host and port, never the URL (it may hold a password).
    console.error(`sessauth-redis: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = FAILED;
  },
);
