import { IntegrationError } from '../errors/sessauth-error.js';
import type { Logger } from '../log/logger.js';
import type { PasswordHasher } from '../users/password-hasher.js';

/**
 * Says at start-up which password hasher the login uses (`password_hasher`, info) and refuses
 * one whose new hashes cost less than OWASP's minimum for its algorithm, unless the host
 * allows it (then it is a warning, `password_hasher_below_owasp_minimum`). A hasher that does
 * not describe itself is reported as `custom` and trusted.
 */
export function checkPasswordHasher(hasher: PasswordHasher | undefined, logger: Logger, allowWeak: boolean): void {
  if (hasher === undefined) return;
  const description = hasher.describe?.();
  if (description === undefined) {
    logger.info?.('password_hasher', { algorithm: 'custom' });
    return;
  }
  const { algorithm, implementation, cost, meetsOwaspMinimum } = description;
  const fields = { algorithm, implementation, ...cost };
  if (meetsOwaspMinimum) {
    logger.info?.('password_hasher', fields);
    return;
  }
  const costs = Object.entries(cost)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  if (!allowWeak) {
    throw new IntegrationError(
      `the password hasher (${algorithm}, ${implementation}: ${costs}) costs less than OWASP's minimum; raise its parameters, or pass allowWeakPasswordHasher: true to createSessauth`,
    );
  }
  logger.warn('password_hasher_below_owasp_minimum', fields);
}
