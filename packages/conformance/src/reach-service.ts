/**
 * Connects to a service a test leg needs. Without the server the leg skips with a
 * loud line naming it, so a user's `pnpm test` still passes; with
 * `SESSAUTH_REQUIRE_SERVICES=1` (CI) an unreachable server fails the run instead.
 */
export async function reachService<T>(name: string, connect: () => Promise<T>): Promise<T | null> {
  try {
    return await connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.SESSAUTH_REQUIRE_SERVICES === '1') {
      throw new Error(`${name} is required (SESSAUTH_REQUIRE_SERVICES=1) but unreachable: ${reason}`);
    }
    console.warn(`\n!!! SKIPPED: ${name} is unreachable (${reason}); its tests are skipped. !!!\n`);
    return null;
  }
}
