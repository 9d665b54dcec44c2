import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SessauthRequest, SessauthResponse } from '@sessauth/core/adapter';
import { sendSessauthResponse as sendOnFastify } from '@sessauth/fastify';
import { toSessauthRequest, writeSessauthResponse } from '@sessauth/node-http';

// Nest hands guards, filters and handlers the platform's own objects: Express's `req`/`res`
// (Node's IncomingMessage/ServerResponse, extended) or Fastify's request/reply (wrapping them
// as `.raw`). These helpers are the only place that tells them apart.

/** A Fastify request or reply: the Node object is `.raw`. */
interface FastifyWrapper<T> {
  readonly raw: T;
}

function isFastifyWrapper<T>(value: object): value is FastifyWrapper<T> {
  return 'raw' in value && typeof value.raw === 'object' && value.raw !== null;
}

/** The Node request under the platform's request object (Express's `req`, or Fastify's `request.raw`). */
export function nodeRequestOf(request: object): IncomingMessage {
  return isFastifyWrapper<IncomingMessage>(request) ? request.raw : (request as IncomingMessage);
}

/**
 * A host route's request as the core sees it, on either platform: for
 * `auth.createSessionFor(userId, { request: sessauthRequestOf(req) })` or `auth.changePassword(...)`.
 * Leave the body unparsed on a route that hands it to the core.
 */
export function sessauthRequestOf(request: object): SessauthRequest {
  return toSessauthRequest(nodeRequestOf(request));
}

/**
 * Sends a core response (a guard's refusal, `createSessionFor(...).response()`, `changePassword`'s
 * answer) on the platform's response object: Express's `res` or Fastify's `reply`, as given by `@Res()`.
 */
export function sendSessauthResponse(response: object, answer: SessauthResponse): void {
  // A Fastify reply is sent through Fastify (its onSend hooks run); Express's res is Node's.
  if (isFastifyWrapper<ServerResponse>(response) && 'code' in response) {
    void sendOnFastify(response as Parameters<typeof sendOnFastify>[0], answer);
    return;
  }
  writeSessauthResponse(response as ServerResponse, answer);
}
