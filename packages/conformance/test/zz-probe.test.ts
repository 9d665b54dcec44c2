import { it } from 'vitest';
import { createSessauth, MemorySessionStore } from '@sessauth/core';
import { mountFastify } from './mount-fastify.js';
import { rawRequest } from '../src/http/raw-http.js';

it('probe', async () => {
  const auth = await createSessauth<any>({ options: { secretKey: 'x'.repeat(48), issuer: 'i', audience: 'a' }, store: new MemorySessionStore(), users: {} as any, authenticator: {} as any });
  const app = await mountFastify(auth);
  for (const id of ['%00', '%ZZ', '%F0%9F%98%80', 'a'.repeat(400), '..%2F..%2Fetc', '%2e%2e', "'%20OR%201=1--", '%ED%A0%80', '%C0%AF']) {
    const r = await rawRequest(app.baseUrl, 'DELETE', `/auth/sessions/${id}/`, { authorization: 'Bearer x' });
    console.log(id.slice(0, 20), r.status, r.text.slice(0, 150));
  }
  for (const [m, p] of [['GET', '/auth'], ['GET', '/auth/'], ['HEAD', '/auth/csrf/'], ['GET', '/AUTH/csrf/'], ['GET', '/auth/csrf/?x=%ZZ'], ['GET', '/x%ZZ'], ['OPTIONS', '/auth/login/']]) {
    const r = await rawRequest(app.baseUrl, m!, p!, {});
    console.log(m, p, r.status, r.text.slice(0, 120));
  }
  await app.close();
});
