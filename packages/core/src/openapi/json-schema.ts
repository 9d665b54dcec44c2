/** The JSON Schema (2020-12, as OpenAPI 3.1 uses it) keywords this description needs. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export type JsonValue = string | number | boolean | null;

export interface JsonSchema {
  readonly $ref?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
  readonly enum?: readonly JsonValue[];
  readonly const?: JsonValue;
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly format?: 'date-time' | 'uri';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly examples?: readonly unknown[];
}

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T] & string;

/**
 * An object schema pinned to the TypeScript wire type `T`: `properties` must name every
 * field of `T` and nothing else (a field added to the wire type without a schema does not
 * compile), and every field is required unless listed in `optional`, which only takes
 * fields `T` marks optional. Responses allow no other property; request bodies opt in.
 */
export function objectSchema<T>(
  properties: { readonly [K in keyof T & string]-?: JsonSchema },
  extra: { readonly optional?: readonly OptionalKeys<T>[]; readonly description?: string; readonly additionalProperties?: boolean } = {},
): JsonSchema {
  const optional = new Set<string>(extra.optional ?? []);
  return {
    type: 'object',
    ...(extra.description === undefined ? {} : { description: extra.description }),
    properties,
    required: Object.keys(properties).filter((key) => !optional.has(key)),
    additionalProperties: extra.additionalProperties ?? false,
  };
}

export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };
export const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };
