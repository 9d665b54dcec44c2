export { createSessauthClient, SessauthClient } from './session-client.js';
export { memoryStorage } from './token-storage.js';
export { SessauthClientError, SignedOutError } from './errors.js';
export type {
  SessauthClientOptions,
  SessauthClientEvents,
  SessauthClientEventName,
  ClientStatus,
  TabSource,
  RefreshTransport,
  SignOutReason,
  TokenStorage,
  SessionInfo,
  SessionLocation,
  LockManagerLike,
  ChannelLike,
} from './types.js';
