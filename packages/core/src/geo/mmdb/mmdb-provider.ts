/// <reference types="node" />
// The offline provider, on its own entry (`@sessauth/core/mmdb`) so the core's
// main entry never loads the reader or touches the file system.
import { readFile } from 'node:fs/promises';
import { Reader, type Response } from 'mmdb-lib';
import { SettingsError } from '../../errors/sessauth-error.js';
import type { GeolocationProvider } from '../location.js';
import { mmdbRecordToLocation } from './mmdb-record-to-location.js';

export type MmdbProviderOptions =
  | {
      /** Path of a MaxMind-format `.mmdb` file you supply (GeoLite2, DB-IP lite, ip-location-db...). */
      readonly path: string;
      /** Language of place names, when the database has several. @default 'en' */
      readonly language?: string;
    }
  | {
      /** The database's bytes, already in memory. */
      readonly database: Uint8Array;
      readonly language?: string;
    };

/**
 * A provider that looks addresses up in a local MaxMind-format database: no
 * network, no third party, microseconds per login. The file is read and checked
 * once, here (a missing or malformed file fails start-up with a `SettingsError`
 * naming JWT_GEOLOCATION_PROVIDER); replace the file and restart to update it.
 */
export async function createMmdbProvider(options: MmdbProviderOptions): Promise<GeolocationProvider> {
  let bytes: Uint8Array;
  if ('database' in options) {
    bytes = options.database;
  } else {
    try {
      bytes = await readFile(options.path);
    } catch (cause) {
      throw settingsError(`cannot read the mmdb file (${errorCode(cause)})`, cause);
    }
  }
  let reader: Reader<Response>;
  try {
    reader = new Reader<Response>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (cause) {
    throw settingsError('the file is not a MaxMind-format database', cause);
  }
  const language = options.language ?? 'en';
  // The core hands over canonical, globally routable addresses only.
  return (ip) => mmdbRecordToLocation(reader.get(ip), language);
}

function settingsError(problem: string, cause: unknown): SettingsError {
  const error = new SettingsError('JWT_GEOLOCATION_PROVIDER', problem);
  (error as Error & { cause?: unknown }).cause = cause;
  return error;
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'error';
}
