import type { TokenStorage } from './types.js';

/** Body transport's default: the refresh token lives as long as this object (a test, one CLI run). */
export function memoryStorage(): TokenStorage {
  let token: string | null = null;
  return {
    get: () => token,
    set: (value) => {
      token = value;
    },
  };
}
