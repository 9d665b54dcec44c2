export { toSessauthRequest, readNodeBody, type NodeRequest } from './to-sessauth-request.js';
export { mountedAt, type MountedAt } from './mounted-at.js';
export { writeSessauthResponse } from './write-sessauth-response.js';
export { authorizationValues } from './authorization-values.js';
export { headersFromRawList } from './headers-from-raw-list.js';
export { PARSED_BODY_WARNING_CODE } from './parsed-body-warning.js';
export { guardInput } from './guard-input.js';
