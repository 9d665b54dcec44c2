import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../src/errors/error-codes.js';
import { ENDPOINTS as ROUTE_TABLE, matchEndpoint as matchRoute } from '../src/endpoints/endpoints.js';
import { objectSchema } from '../src/openapi/json-schema.js';
import { ROUTE_DOCS } from '../src/openapi/route-docs.js';
import { documentedPath } from '../src/openapi/openapi-document.js';
import { openApiDocument, type HttpMethodKey, type OperationObject, type ResponseObject } from '../src/openapi.js';
import type { PublicSession } from '../src/http/wire-types.js';

const TRANSPORTS = ['body', 'cookie', 'both'] as const;

function operationOf(path: string, method: string, prefix = '/auth', transport: (typeof TRANSPORTS)[number] = 'body'): OperationObject {
  const item = openApiDocument({ prefix, refreshTokenTransport: transport }).paths[documentedPath(prefix, path)];
  const op = item?.[method.toLowerCase() as HttpMethodKey];
  if (op === undefined) throw new Error(`no description of ${method} ${path}`);
  return op;
}

function codesAt(op: OperationObject, status: number): unknown {
  const response = op.responses[String(status)] as ResponseObject | undefined;
  // An error body is `allOf: [ErrorResponse, { the codes this answer can carry }]`.
  return response?.content?.['application/json']?.schema.allOf?.[1]?.properties?.error_code?.enum;
}

describe('OpenAPI description', () => {
  it('describes every route of the router, and nothing the router does not serve', () => {
    for (const prefix of ['/auth', '/api/v2/auth']) {
      const document = openApiDocument({ prefix, sessionActivity: true });
      const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
      // The Shared Signals routes are served only with JWT_SSF_TRANSMITTER on, and described only then;
      // the DBSC routes only with JWT_DEVICE_BOUND_COOKIES.
      const served = ROUTE_TABLE.filter((e) => !e.route.startsWith('ssf-') && !e.route.startsWith('device-bound-')).map(
        (e) => `${e.method} ${documentedPath(prefix, e.path)}`,
      );
      expect(described.sort()).toEqual(served.sort());
      const withSsf = openApiDocument({ prefix, sessionActivity: true, ssfTransmitter: true, ssfStreamEndpoints: true, deviceBoundCookies: true });
      const describedWithSsf = Object.entries(withSsf.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
      expect(describedWithSsf.sort()).toEqual(ROUTE_TABLE.map((e) => `${e.method} ${documentedPath(prefix, e.path)}`).sort());
      // The router reads the same table: each documented operation reaches its route.
      for (const entry of ROUTE_TABLE) {
        const match = matchRoute(entry.method, documentedPath(prefix, entry.path).replace('{id}', 'abc'), prefix);
        expect(match).toMatchObject({ kind: 'route', route: entry.route });
      }
    }
    expect(Object.keys(ROUTE_DOCS).sort()).toEqual([...new Set(ROUTE_TABLE.map((e) => e.route))].sort());
  });

  it('describes the activity route and the last-client fields only with the activity history on', () => {
    const off = openApiDocument();
    expect(Object.keys(off.paths)).not.toContain('/auth/sessions/{id}/activity/');
    expect(JSON.stringify(off)).not.toMatch(/last_ip_address|ActivityEntry/);
    const on = openApiDocument({ sessionActivity: true });
    expect(on.paths['/auth/sessions/{id}/activity/']).toHaveProperty('get');
    expect(JSON.stringify(on.components)).toMatch(/last_ip_address/);
  });

  it('names each error code with its status, the two context-dependent ones at both', () => {
    const refresh = operationOf('/refresh', 'POST');
    expect(codesAt(refresh, 400)).toEqual(expect.arrayContaining(['invalid_request', 'invalid_token_type']));
    expect(codesAt(refresh, 401)).toEqual(expect.arrayContaining(['token_reuse_detected', 'session_expired', 'invalid_token']));
    expect(codesAt(refresh, 401)).not.toContain('invalid_token_type');
    const remove = operationOf('/sessions/{id}', 'DELETE');
    expect(codesAt(remove, 404)).toEqual(['session_not_found']);
    expect(codesAt(remove, 401)).toContain('session_not_found');
    const jwks = operationOf('/jwks.json', 'GET');
    expect(codesAt(jwks, 404)).toEqual(['not_found']);
    // Every code of the table is in the shared error schema.
    expect(openApiDocument().components.schemas.ErrorResponse?.properties?.error_code?.enum).toEqual(Object.keys(ERROR_STATUS));
  });

  it('follows the transport: CSRF and cookies only where a cookie carries the refresh token', () => {
    expect(codesAt(operationOf('/login', 'POST', '/auth', 'body'), 403)).toBeUndefined();
    for (const transport of ['cookie', 'both'] as const) {
      const login = operationOf('/login', 'POST', '/auth', transport);
      expect(codesAt(login, 403)).toEqual(['csrf_failed']);
      expect(login.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['cookie:csrftoken', 'header:X-CSRFToken']);
      expect((login.responses['200'] as ResponseObject)['x-set-cookies']).toEqual(['refresh_token']);
    }
    expect((operationOf('/login', 'POST', '/auth', 'body').responses['200'] as ResponseObject)['x-set-cookies']).toBeUndefined();
    expect(openApiDocument({ refreshTokenTransport: 'cookie' }).components.schemas.TokenResponse?.required).toEqual(['access_token']);
    expect(openApiDocument({ refreshTokenTransport: 'both' }).components.schemas.TokenResponse?.required).toEqual(['access_token', 'refresh_token']);
    expect(operationOf('/refresh', 'POST', '/auth', 'cookie').requestBody?.required).toBe(false);
    expect(operationOf('/refresh', 'POST', '/auth', 'body').requestBody?.required).toBe(true);
  });

  it('describes DPoP only when JWT_DPOP is on: the DPoP header, the DPoP scheme, invalid_dpop_proof, token_type', () => {
    const off = openApiDocument();
    expect(off.components.securitySchemes.dpopAuth).toBeUndefined();
    expect(JSON.stringify(off.paths)).not.toContain('invalid_dpop_proof');
    const on = openApiDocument({ dpop: 'allowed' });
    expect(on.components.securitySchemes.dpopAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'DPoP' }));
    for (const [path, method] of [
      ['/login', 'post'],
      ['/refresh', 'post'],
      ['/sessions', 'get'],
      ['/logout', 'post'],
    ] as const) {
      const op = on.paths[documentedPath('/auth', path)]?.[method];
      expect(
        op?.parameters?.map((p) => `${p.in}:${p.name}`),
        path,
      ).toContain('header:DPoP');
      expect(codesAt(op as OperationObject, 401), path).toEqual(expect.arrayContaining(['invalid_dpop_proof']));
    }
    expect(on.paths[documentedPath('/auth', '/sessions')]?.get?.security).toEqual([{ bearerAuth: [] }, { dpopAuth: [] }]);
    expect(on.components.schemas.TokenResponse?.properties?.token_type).toEqual(expect.objectContaining({ const: 'DPoP' }));
    expect(on.components.schemas.TokenResponse?.required).not.toContain('token_type');
  });

  it('describes the session list with the device name and expiry, and 429 with Retry-After', () => {
    const document = openApiDocument();
    const session = document.components.schemas.PublicSession;
    expect(session?.required).toEqual(expect.arrayContaining(['id', 'is_current', 'name', 'expires_at']));
    expect(document.components.schemas.PasswordLoginRequest?.properties?.remember).toEqual(expect.objectContaining({ type: 'boolean' }));
    expect((operationOf('/login', 'POST').responses['429'] as ResponseObject).headers).toHaveProperty('Retry-After');
  });

  it('resolves every $ref', () => {
    const document = openApiDocument({ refreshTokenTransport: 'both' });
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const target of refs) {
      const found = target.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
      expect(found, target).toBeDefined();
    }
  });

  it('pins each object schema to its wire type at compile time', () => {
    // @ts-expect-error a field of PublicSession without a schema does not compile
    objectSchema<Pick<PublicSession, 'id' | 'name'>>({ id: { type: 'string' } });
    // @ts-expect-error a property the wire type does not have does not compile
    objectSchema<Pick<PublicSession, 'id'>>({ id: { type: 'string' }, extra: { type: 'string' } });
    // @ts-expect-error a required field cannot be listed as optional
    objectSchema<Pick<PublicSession, 'id'>>({ id: { type: 'string' } }, { optional: ['id'] });
    expect(objectSchema<Pick<PublicSession, 'id'>>({ id: { type: 'string' } }).required).toEqual(['id']);
  });
});
