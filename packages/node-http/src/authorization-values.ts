import type { IncomingMessage } from 'node:http';

/**
 * Every `Authorization` value from `rawHeaders`: the guard needs only this, so the
 * hot path builds no request object and reads no body.
 */
export function authorizationValues(req: IncomingMessage): string[] | undefined {
  let values: string[] | undefined;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') (values ??= []).push(raw[i + 1]!);
  }
  return values;
}
