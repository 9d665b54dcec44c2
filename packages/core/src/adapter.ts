// @sessauth/core/adapter: what an adapter author needs to translate a framework's
// request into the core's plain-data shape and write the answer back.

export type { SessauthRequest, SessauthResponse, RequestHeaders } from './http/sessauth-request.js';
export type { RequestUriFacts } from './http/request-uri.js';
export { readLimitedStream } from './streams/read-limited-stream.js';
