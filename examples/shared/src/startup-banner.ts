import type { ExampleConfig } from './env-config.js';

/**
 * What an example prints once it listens: where, which store, which development
 * defaults are in use (loudly), and whether demo users were seeded. It names users,
 * never a password, a secret or a store URL's credentials.
 */
export function startupBanner(framework: string, config: ExampleConfig): string {
  const lines = [`sessauth ${framework} example on http://${config.host}:${config.port} (store ${config.storeUrl.split(':')[0]})`];
  if (config.developmentDefaults.length > 0) {
    lines.push(
      `*** DEVELOPMENT DEFAULTS in use for ${config.developmentDefaults.join(', ')}: never run this in production` +
        ' (set them, and NODE_ENV=production). ***',
    );
  }
  const plan = config.demoUsers;
  if (plan === null) {
    lines.push(`No demo users seeded${config.production ? ' (NODE_ENV=production; SESSAUTH_DEMO_USERS seeds some)' : ''}.`);
  } else {
    const source = plan.builtIn ? 'the development defaults; SESSAUTH_DEMO_USERS replaces them' : 'SESSAUTH_DEMO_USERS';
    lines.push(`Demo users seeded: ${usernamesOf(plan.spec).join(', ')} (from ${source}).`);
    lines.push(config.adminUsers.length > 0 ? `Admins: ${config.adminUsers.join(', ')}.` : 'No admins (SESSAUTH_ADMIN_USERS names them).');
  }
  return lines.join('\n');
}

/** The names of "name:password,name:password" (the seeding itself validates the form). */
function usernamesOf(spec: string): string[] {
  return spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => entry.slice(0, entry.indexOf(':')));
}
