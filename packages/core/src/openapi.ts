// @sessauth/core/openapi: the OpenAPI 3.1 description of the endpoints, built from the
// route table, the wire types and the error table (kept off the main entry).

export { openApiDocument, type OpenApiSettings } from './openapi/openapi-document.js';
export type {
  OpenApiDocument,
  OperationObject,
  PathItem,
  ResponseObject,
  ParameterObject,
  HeaderObject,
  Reference,
  HttpMethodKey,
} from './openapi/openapi-types.js';
export type { JsonSchema, JsonType, JsonValue } from './openapi/json-schema.js';
