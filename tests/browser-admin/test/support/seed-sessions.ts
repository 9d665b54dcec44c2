export const XSS_USER_AGENT = '<script>alert(1)</script>';

/** One login over the API (body transport) with the given User-Agent. */
export async function apiLogin(origin: string, username: string, password: string, userAgent: string): Promise<string> {
  const response = await fetch(`${origin}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`login of ${username} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * The sessions the browser tests look at: alice once, bob five times with a cap of
 * three active sessions (so his two oldest end up revoked), his newest carrying a
 * User-Agent that is a script tag. Returns how many sessions exist.
 */
export async function seedSessions(origin: string): Promise<number> {
  await apiLogin(origin, 'alice', 'alice-password', 'seed-alice/1.0');
  for (let i = 0; i < 4; i++) await apiLogin(origin, 'bob', 'bob-password', `seed-bob/${i}`);
  await apiLogin(origin, 'bob', 'bob-password', XSS_USER_AGENT);
  return 6;
}
