import type { JsonSchema } from './json-schema.js';

// The parts of OpenAPI 3.1 this description uses, typed so a consumer can walk it.

export interface Reference {
  readonly $ref: string;
}

export interface HeaderObject {
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface ResponseObject {
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>;
  readonly content?: Readonly<Record<string, { readonly schema: JsonSchema }>>;
  /** The names of the cookies this answer may set (OpenAPI cannot name them in `Set-Cookie`). */
  readonly 'x-set-cookies'?: readonly string[];
}

export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'cookie' | 'header';
  readonly required: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly ParameterObject[];
  readonly requestBody?: { readonly required: boolean; readonly content: Readonly<Record<string, { readonly schema: JsonSchema }>> };
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>;
}

export type HttpMethodKey = 'get' | 'post' | 'patch' | 'delete';

export type PathItem = Partial<Record<HttpMethodKey, OperationObject>>;

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
    readonly license: { readonly name: string; readonly identifier: string };
  };
  /** The paths are relative to the first: `/` (the serving origin), or the mount path (`mountPath`). */
  readonly servers: readonly { readonly url: string; readonly description: string }[];
  /** The settings this document was made for; the prefix is already in every path. */
  readonly 'x-sessauth': { readonly prefix: string; readonly refreshTokenTransport: string };
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly headers: Readonly<Record<string, HeaderObject>>;
    readonly securitySchemes: Readonly<Record<string, { readonly type: 'http'; readonly scheme: 'bearer' | 'DPoP'; readonly bearerFormat: string }>>;
  };
}
