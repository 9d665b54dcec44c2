import type { FastifyReply } from 'fastify';
import type { SessauthResponse } from '@sessauth/core/adapter';

/** Sends a core response (an endpoint's, a guard's error, or `createSessionFor(...).response()`) on Fastify's reply. */
export function sendSessauthResponse(reply: FastifyReply, response: SessauthResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  if (response.setCookies.length > 0) reply.header('set-cookie', [...response.setCookies]);
  return reply.send(response.body ?? undefined);
}
