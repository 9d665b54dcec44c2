import type { ResolvedOptions } from './options.js';

/** How `settingsFromEnv` reads a variable's text. */
export type EnvReading = 'string' | 'secret' | 'secret-list' | 'pem-list' | 'int' | 'bool' | 'list';

/** What a kind's `resolve` may use: the settings resolved before it (table order) and a failure naming the setting. */
export interface ResolveContext {
  readonly resolved: Readonly<Partial<ResolvedOptions>>;
  fail(problem: string): never;
}

/** One kind of setting: how it is read from the environment, validated, defaulted, and shown in the README. */
export interface SettingKind<T> {
  /** Absent: code only (a function), no environment variable. */
  readonly env?: EnvReading;
  /** The default as the settings table of the README shows it. */
  readonly shownDefault: string;
  /** The allowed values of an enumeration, matched without regard to case in the environment. */
  readonly allowed?: readonly string[];
  resolve(value: unknown, context: ResolveContext): T;
}

type Fallback<T> = T | ((resolved: Readonly<Partial<ResolvedOptions>>) => T);

function fallbackOf<T>(fallback: Fallback<T>, context: ResolveContext): T {
  return typeof fallback === 'function' ? (fallback as (resolved: Readonly<Partial<ResolvedOptions>>) => T)(context.resolved) : fallback;
}

/** A short, quoted echo of a bad non-secret value. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}...` : value) : String(value);
  return `got ${text}`;
}

/** A non-blank string; `secret` marks a key, whose bytes matter (read untrimmed from the environment). */
export function requiredString(env: 'string' | 'secret' = 'string'): SettingKind<string> {
  return {
    env,
    shownDefault: 'required',
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) context.fail('is required');
      if (typeof value !== 'string') context.fail('must be a string');
      return value;
    },
  };
}

export function optionalString(env: 'string' | 'secret', shownDefault: string): SettingKind<string | undefined> {
  return {
    env,
    shownDefault,
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return undefined;
      if (typeof value !== 'string') context.fail('must be a string');
      return value;
    },
  };
}

export function int(fallback: Fallback<number>, min: number, max: number, shownDefault = String(fallback)): SettingKind<number> {
  return {
    env: 'int',
    shownDefault,
    resolve(value: unknown, context: ResolveContext) {
      const n = value === undefined ? fallbackOf(fallback, context) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) context.fail(`must be an integer, ${show(n)}`);
      if (n < min || n > max) context.fail(`must be between ${min} and ${max}, ${show(n)}`);
      return n;
    },
  };
}

export function bool(fallback: Fallback<boolean>, shownDefault = `\`${String(fallback)}\``): SettingKind<boolean> {
  return {
    env: 'bool',
    shownDefault,
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return fallbackOf(fallback, context);
      if (typeof value !== 'boolean') context.fail(`must be a boolean, ${show(value)}`);
      return value;
    },
  };
}

export function oneOf<const T extends string>(allowed: readonly T[], fallback: T, { anyCaseInEnv = true } = {}): SettingKind<T> {
  return {
    env: 'string',
    shownDefault: `\`${fallback}\``,
    ...(anyCaseInEnv ? { allowed } : {}),
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return fallback;
      if (!allowed.includes(value as T)) context.fail(`must be one of ${allowed.join(', ')}; ${show(value)}`);
      return value as T;
    },
  };
}

/** A string matching `pattern` (`what` says what it must be), or the fallback. */
export function matching(fallback: Fallback<string>, pattern: RegExp, what: string, shownDefault: string): SettingKind<string> {
  return {
    env: 'string',
    shownDefault,
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return fallbackOf(fallback, context);
      if (typeof value !== 'string' || !pattern.test(value)) context.fail(`must be ${what}, ${show(value)}`);
      return value;
    },
  };
}

/** As `matching`, with no default (undefined when unset). */
export function optionalMatching(pattern: RegExp, what: string, shownDefault: string): SettingKind<string | undefined> {
  const kind = matching('', pattern, what, shownDefault);
  return { ...kind, resolve: (value, context) => (value === undefined ? undefined : kind.resolve(value, context)) };
}

/** An array of strings, each passing `check` (which fails through the context). */
export function list(
  check: (item: string, context: ResolveContext) => void,
  env: 'list' | 'secret-list' | 'pem-list' = 'list',
  shownDefault = 'none',
): SettingKind<readonly string[]> {
  return {
    env,
    shownDefault,
    resolve(value: unknown, context: ResolveContext) {
      if (value === undefined) return Object.freeze([]);
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) context.fail('must be an array of strings');
      for (const item of value) check(item, context);
      return Object.freeze([...value]);
    },
  };
}

/** A throttle rate such as `5/min` (parsed into its spec after the table; `0` disables). */
export function rate(fallback: string): SettingKind<string> {
  const kind = optionalString('string', `\`${fallback}\``);
  return { ...kind, resolve: (value, context) => kind.resolve(value, context) ?? fallback };
}

/** A function given in code. */
export function codeFunction<F>(): SettingKind<F | undefined> {
  return {
    shownDefault: 'none',
    resolve(value: unknown, context: ResolveContext) {
      if (value !== undefined && typeof value !== 'function') context.fail('must be a function');
      return value as F | undefined;
    },
  };
}
