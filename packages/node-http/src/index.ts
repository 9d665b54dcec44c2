export { toSessauthRequest, readNodeBody, type NodeRequest } from './to-sessauth-request.js';
export { writeSessauthResponse } from './write-sessauth-response.js';
export { authorizationValues } from './authorization-values.js';
