/** The `code` of the process warning, for `process.on('warning')` filters and `--disable-warning`. */
export const PARSED_BODY_WARNING_CODE = 'SESSAUTH_PARSED_BODY';

const MESSAGE =
  'A body parser mounted before the sessauth adapter already read the request body. The adapter re-serialises a parsed ' +
  'JSON body (its exact bytes are lost) and cannot recover a drained stream, so the auth ' +
  'endpoints may refuse it. Mount the sessauth adapter before express.json() / koa-bodyparser, or scope the parser ' +
  "to your own routes, e.g. app.use('/api', express.json()).";

let warned = false;

/**
 * Warns once per process (not per request: a misconfigured app would flood its logs) that a
 * framework body parser got to the body first. Through `process.emitWarning`, so it shows
 * on stderr by default and hosts can route or silence it by its code.
 */
export function warnParsedBodyOnce(): void {
  if (warned) return;
  warned = true;
  process.emitWarning(MESSAGE, { code: PARSED_BODY_WARNING_CODE });
}
