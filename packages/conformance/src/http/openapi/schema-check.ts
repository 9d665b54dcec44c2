import type { JsonSchema, JsonType } from '@sessauth/core/openapi';

// A JSON Schema subset, enough for the OpenAPI description of the core: $ref, type (arrays
// for nullable), const, enum, properties, required, additionalProperties: false, items,
// oneOf, anyOf, allOf, minLength/maxLength and a loose date-time. No dependency: the kit must
// not pull a validator into every adapter's test run.

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export type ResolveRef = (ref: string) => JsonSchema | undefined;

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function hasType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Where `value` breaks `schema`, one line per problem (`$.sessions[0].name: ...`); empty when it conforms. */
export function schemaErrors(value: unknown, schema: JsonSchema, resolve: ResolveRef, at = '$'): string[] {
  if (schema.$ref !== undefined) {
    const target = resolve(schema.$ref);
    return target === undefined ? [`${at}: unresolved ${schema.$ref}`] : schemaErrors(value, target, resolve, at);
  }
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!types.some((type) => hasType(value, type))) return [`${at}: ${typeOf(value)} is not ${types.join(' or ')}`];
  }
  if (schema.const !== undefined && value !== schema.const) errors.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (schema.enum !== undefined && !schema.enum.some((allowed) => allowed === value)) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  if (typeof value === 'string') errors.push(...stringErrors(value, schema, at));
  if (Array.isArray(value) && schema.items !== undefined) {
    value.forEach((item, i) => errors.push(...schemaErrors(item, schema.items!, resolve, `${at}[${i}]`)));
  }
  if (typeOf(value) === 'object') errors.push(...objectErrors(value as Record<string, unknown>, schema, resolve, at));
  for (const part of schema.allOf ?? []) errors.push(...schemaErrors(value, part, resolve, at));
  if (schema.anyOf !== undefined && !schema.anyOf.some((option) => schemaErrors(value, option, resolve, at).length === 0)) {
    errors.push(`${at}: matches none of anyOf`);
  }
  if (schema.oneOf !== undefined) {
    const matching = schema.oneOf.filter((option) => schemaErrors(value, option, resolve, at).length === 0).length;
    if (matching !== 1) errors.push(`${at}: matches ${matching} of oneOf, not exactly one`);
  }
  return errors;
}

function stringErrors(value: string, schema: JsonSchema, at: string): string[] {
  const errors: string[] = [];
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
  if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(`${at}: longer than ${schema.maxLength}`);
  if (schema.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) {
    errors.push(`${at}: ${JSON.stringify(value)} is not a date-time`);
  }
  return errors;
}

function objectErrors(value: Record<string, unknown>, schema: JsonSchema, resolve: ResolveRef, at: string): string[] {
  const errors: string[] = [];
  for (const name of schema.required ?? []) if (!(name in value)) errors.push(`${at}: missing ${name}`);
  const properties = schema.properties ?? {};
  for (const [name, field] of Object.entries(value)) {
    const property = properties[name];
    if (property !== undefined) errors.push(...schemaErrors(field, property, resolve, `${at}.${name}`));
    else if (schema.additionalProperties === false) errors.push(`${at}: undeclared property ${name}`);
  }
  return errors;
}
