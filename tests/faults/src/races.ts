import type { DemoCredentials, ExampleServer } from './example-server.js';
import { send, type Answer } from './wire.js';

const LIMIT_MS = 30_000;

export interface RefreshRaceReport {
  readonly trials: number;
  /** Trials in which more than one refresh succeeded. */
  readonly doubleWins: number;
  /** Trials in which none did (the first arrival should win). */
  readonly noWinner: number;
  /** Answers other than 200, 401 token_reuse_detected and 401 session_expired. */
  readonly unexpected: string[];
  /** Winners whose new access or refresh token still worked afterwards, on either process. */
  readonly winnerAlive: number;
}

/**
 * Issue 12, item 4: per trial, one login on A, then `parallel` refreshes of its
 * refresh token at once, alternating between A and B (two processes on one
 * store). Exactly one may win; every other answer is token_reuse_detected (the
 * session is revoked) or session_expired (it already was); afterwards the
 * winner's pair is dead on both processes.
 */
export async function refreshRace(
  a: ExampleServer,
  b: ExampleServer,
  user: DemoCredentials,
  trials: number,
  parallel: number,
  signal?: AbortSignal,
): Promise<RefreshRaceReport> {
  let doubleWins = 0;
  let noWinner = 0;
  let winnerAlive = 0;
  const unexpected: string[] = [];
  let trial = 0;
  for (; trial < trials && signal?.aborted !== true; trial += 1) {
    const login = await send(a.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip: '203.0.113.1' }, LIMIT_MS);
    if (login.issued === null) {
      unexpected.push(`trial ${trial}: login ${login.status} ${login.body}`);
      continue;
    }
    const refreshToken = login.issued.refresh;
    const answers = await Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        send(
          (i % 2 === 0 ? a : b).baseUrl,
          {
            method: 'POST',
            path: '/auth/refresh/',
            json: { refresh_token: refreshToken },
            ip: `203.0.113.${(i % 250) + 2}`,
          },
          LIMIT_MS,
        ),
      ),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    if (winners.length > 1) doubleWins += 1;
    if (winners.length === 0) noWinner += 1;
    for (const answer of answers) {
      if (answer.status === 200 || (answer.status === 401 && (answer.code === 'token_reuse_detected' || answer.code === 'session_expired'))) continue;
      unexpected.push(`trial ${trial}: ${answer.status} ${answer.body}`);
    }
    for (const winner of winners) if (await stillWorks(a, b, winner)) winnerAlive += 1;
  }
  return { trials: trial, doubleWins, noWinner, unexpected: unexpected.slice(0, 20), winnerAlive };
}

async function stillWorks(a: ExampleServer, b: ExampleServer, winner: Answer): Promise<boolean> {
  const issued = winner.issued;
  if (issued === null) return false;
  const ip = '203.0.113.253';
  const checks = await Promise.all([
    send(a.baseUrl, { method: 'GET', path: '/me', access: issued.access, ip }, LIMIT_MS),
    send(b.baseUrl, { method: 'GET', path: '/me', access: issued.access, ip }, LIMIT_MS),
    send(b.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: issued.refresh }, ip }, LIMIT_MS),
  ]);
  return checks.some((answer) => answer.status !== 401);
}

export interface RevokeReport {
  readonly trials: number;
  /** Requests on B that succeeded after A acknowledged the revocation. */
  readonly successes: number;
  /** Answers that were neither the trial's steps nor a refusal (login or logout on A not 200, a 503 on B), with why. */
  readonly broken: string[];
}

/**
 * Issue 12, item 4: log in on A, log out on A (acknowledged), then use the
 * session on B at once, with the access token and with the refresh token: 0
 * successes. `concurrency` trials run side by side, each with its own user.
 */
export async function revokeOnAUseOnB(
  a: ExampleServer,
  b: ExampleServer,
  users: readonly DemoCredentials[],
  trials: number,
  signal?: AbortSignal,
): Promise<RevokeReport> {
  let next = 0;
  let successes = 0;
  const broken: string[] = [];
  const worker = async (user: DemoCredentials, lane: number) => {
    const ip = `203.0.114.${lane + 1}`;
    while (next < trials && signal?.aborted !== true) {
      next += 1;
      const login = await send(a.baseUrl, { method: 'POST', path: '/auth/login/', json: user, ip }, LIMIT_MS);
      if (login.issued === null) {
        broken.push(`login ${login.status} ${login.body}`);
        continue;
      }
      const { access, refresh } = login.issued;
      const logout = await send(a.baseUrl, { method: 'POST', path: '/auth/logout/', json: {}, access, ip }, LIMIT_MS);
      if (logout.status !== 200) {
        broken.push(`logout ${logout.status} ${logout.body}`);
        continue;
      }
      const [me, refreshed] = await Promise.all([
        send(b.baseUrl, { method: 'GET', path: '/me', access, ip }, LIMIT_MS),
        send(b.baseUrl, { method: 'POST', path: '/auth/refresh/', json: { refresh_token: refresh }, ip }, LIMIT_MS),
      ]);
      for (const answer of [me, refreshed]) {
        if (answer.status === 200) successes += 1;
        else if (answer.status !== 401) broken.push(`use on B ${answer.status} ${answer.body}`);
      }
    }
  };
  await Promise.all(users.map((user, lane) => worker(user, lane)));
  return { trials: next, successes, broken: broken.slice(0, 20) };
}
