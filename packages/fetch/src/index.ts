export {
  createFetchHandler,
  type ConnInfo,
  type FetchHandler,
  type FetchHandlerOptions,
} from './fetch-handler.js';
