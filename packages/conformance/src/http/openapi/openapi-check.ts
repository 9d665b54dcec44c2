import type { HttpMethodKey, JsonSchema, OpenApiDocument, OperationObject, Reference, ResponseObject } from '@sessauth/core/openapi';
import type { RecordedResponse } from './response-recorder.js';
import { schemaErrors } from './schema-check.js';

/**
 * Every way the recorded answers depart from the OpenAPI description of the app that gave
 * them, one line each: an undeclared status (an error code at a status its operation does
 * not list is caught by the status's `error_code` enum), a body off its schema, a content
 * type not declared, a declared header missing or different, a cookie set that the answer
 * does not name. Answers outside the prefix (host routes) and CORS preflights are not ours.
 */
export function openApiViolations(document: OpenApiDocument, records: readonly RecordedResponse[]): string[] {
  // The paths are relative to the server URL (`servers[0].url`: `/`, or the mount path).
  const prefix = `${(document.servers?.[0]?.url ?? '').replace(/\/$/, '')}${document['x-sessauth'].prefix}`;
  const mount = prefix.slice(0, prefix.length - document['x-sessauth'].prefix.length);
  const templates = Object.keys(document.paths).map((path) => ({ path, pattern: templatePattern(`${mount}${path}`) }));
  const violations: string[] = [];
  for (const record of records) {
    if (record.method === 'OPTIONS' || (record.path !== prefix && !record.path.startsWith(`${prefix}/`))) continue;
    const where = `${record.method} ${record.path} -> ${record.status}`;
    const path = templates.find((t) => t.pattern.test(withoutSlash(record.path)))?.path;
    const operation = path === undefined ? undefined : document.paths[path]?.[record.method.toLowerCase() as HttpMethodKey];
    const declared = declaredResponse(document, path, operation, record.status);
    if (typeof declared === 'string') {
      violations.push(`${where}: ${declared}`);
      continue;
    }
    violations.push(...responseProblems(document, declared, record).map((problem) => `${where}: ${problem}`));
  }
  return violations;
}

function withoutSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The documented path as a pattern: trailing slash optional, `{id}` one segment. */
function templatePattern(path: string): RegExp {
  const escaped = withoutSlash(path)
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The response object the answer should follow, or why there is none. */
function declaredResponse(
  document: OpenApiDocument,
  path: string | undefined,
  operation: OperationObject | undefined,
  status: number,
): ResponseObject | string {
  const responses = document.components.responses;
  if (path === undefined) return status === 404 && responses.NotFound ? responses.NotFound : 'no path describes it (only 404 not_found is)';
  if (operation === undefined) {
    return status === 405 && responses.MethodNotAllowed ? responses.MethodNotAllowed : 'the method is not described (only 405 is)';
  }
  const response = operation.responses[String(status)];
  if (response === undefined) return `status ${status} is not declared for ${operation.operationId}`;
  return isReference(response) ? (resolveRef<ResponseObject>(document, response.$ref) ?? `unresolved ${response.$ref}`) : response;
}

function responseProblems(document: OpenApiDocument, declared: ResponseObject, record: RecordedResponse): string[] {
  const problems: string[] = [];
  const mediaType = record.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const content = declared.content ?? {};
  if (Object.keys(content).length === 0) {
    if (record.text !== '') problems.push('a body where none is declared');
  } else if (mediaType === undefined || content[mediaType] === undefined) {
    problems.push(`content type ${mediaType ?? '(none)'} is not one of ${Object.keys(content).join(', ')}`);
  } else if (record.method !== 'HEAD') {
    const body = parseJson(record.text);
    if (body === undefined) problems.push('the body is not JSON');
    else problems.push(...schemaErrors(body, content[mediaType].schema, (ref) => resolveRef<JsonSchema>(document, ref)));
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    if (name.toLowerCase() === 'set-cookie') continue;
    const value = record.headers[name.toLowerCase()];
    const schema = isReference(header) ? resolveRef<{ schema: JsonSchema }>(document, header.$ref)?.schema : header.schema;
    if (value === undefined) problems.push(`header ${name} is missing`);
    else if (schema?.const !== undefined && value !== schema.const) problems.push(`header ${name} is ${value}, not ${String(schema.const)}`);
  }
  const allowedCookies = declared['x-set-cookies'] ?? [];
  for (const name of record.setCookieNames) {
    if (!allowedCookies.includes(name)) problems.push(`sets cookie ${name}, not declared (declared: ${allowedCookies.join(', ') || 'none'})`);
  }
  return problems;
}

function isReference(value: object): value is Reference {
  return '$ref' in value;
}

function resolveRef<T>(document: OpenApiDocument, ref: string): T | undefined {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), document) as
    | T
    | undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
