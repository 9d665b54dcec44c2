export {
  createFetchHandler,
  type ConnInfo,
  type FetchHandler,
  type FetchHandlerOptions,
  type WaitUntil,
} from './fetch-handler.js';
