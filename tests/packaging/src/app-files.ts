import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export type ModuleSystem = 'esm' | 'cjs';

/** The file each module system runs, and the one line that hands main() its loader. */
const ENTRY: Readonly<Record<ModuleSystem, { file: string; call: string }>> = {
  esm: { file: 'server.mjs', call: 'await main((name) => import(name));' },
  cjs: { file: 'server.cjs', call: 'main(async (name) => require(name)).catch((error) => { console.error(error); process.exit(1); });' },
};

export function entryFile(system: ModuleSystem): string {
  return ENTRY[system].file;
}

/** Writes the app's two servers (one body, an ESM and a CommonJS entry). */
export function writeServers(app: string): void {
  const body = readFileSync(join(FIXTURES, 'app', 'serve.js'), 'utf8');
  for (const { file, call } of Object.values(ENTRY)) writeFileSync(join(app, file), `${body}\n${call}\n`);
}

/** The conformance kit's test file, run by the app's own vitest. */
export function writeKitTest(app: string): void {
  copyFileSync(join(FIXTURES, 'app', 'kit.test.mjs'), join(app, 'kit.test.mjs'));
}

/** The module settings a TypeScript user picks, one tsc program each. */
export const TYPE_SETUPS = [
  { name: 'node16 (ESM)', module: 'node16', moduleResolution: 'node16', file: 'consumer.mts' },
  { name: 'node16 (CommonJS)', module: 'node16', moduleResolution: 'node16', file: 'consumer.cts' },
  { name: 'bundler', module: 'preserve', moduleResolution: 'bundler', file: 'consumer.ts' },
] as const;

/**
 * The consumer file under each extension and a tsconfig per setup. ESM and CommonJS are
 * separate programs, as in a real project: one program with both would merge the two
 * builds' `declare module 'fastify'` augmentations, which no user compiles together.
 * skipLibCheck is on, as `tsc --init` writes it (and as the third-party declarations
 * need: the newest @types/koa does not compile against the newest content-disposition);
 * the consumer's `@ts-expect-error` lines catch a declaration of ours gone `any`.
 */
export function writeConsumer(app: string): string[] {
  const source = readFileSync(join(FIXTURES, 'consumer', 'consumer.ts'), 'utf8');
  return TYPE_SETUPS.map((setup) => {
    writeFileSync(join(app, setup.file), source);
    const tsconfig = `tsconfig.${setup.file.replace(/\./g, '-')}.json`;
    const compilerOptions = {
      module: setup.module,
      moduleResolution: setup.moduleResolution,
      target: 'ES2022',
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
    };
    writeFileSync(join(app, tsconfig), `${JSON.stringify({ compilerOptions, files: [setup.file] }, null, 2)}\n`);
    return tsconfig;
  });
}
