import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/openapi.js';

/**
 * The description under a standard linter: Redocly's `recommended` rules, with the exceptions
 * the wire contract makes, each said here. What a finding is: `<rule> <where>`.
 */
const CONTRACT_EXCEPTIONS: ReadonlyArray<{ readonly rule: string; readonly at: RegExp; readonly why: string }> = [
  {
    rule: 'no-unused-components',
    at: /^#\/components\/responses\/(NotFound|MethodNotAllowed)$/,
    why: 'the answers to a path or a method no operation describes: no operation can reference them',
  },
  {
    rule: 'operation-4xx-response',
    at: /~1csrf~1\/get\/responses$/,
    why: 'GET csrf/ takes no input, so it has no client error to describe',
  },
  {
    rule: 'operation-4xx-response',
    at: /~1\.well-known~1ssf-configuration\/get\/responses$/,
    why: 'the SSF metadata takes no input either (and is described only while it is served)',
  },
];

async function findings(document: unknown): Promise<string[]> {
  const config = await createConfig({
    extends: ['recommended'],
    // The trailing slash of every path is the seed's wire contract (and optional on the wire).
    rules: { 'no-path-trailing-slash': 'off' },
  });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  return problems
    .map((problem) => ({ rule: problem.ruleId, at: problem.location[0]?.pointer ?? '', message: problem.message }))
    .filter((finding) => !CONTRACT_EXCEPTIONS.some((exception) => exception.rule === finding.rule && exception.at.test(finding.at)))
    .map((finding) => `${finding.rule} ${finding.at}: ${finding.message}`);
}

describe('the OpenAPI description under Redocly lint (recommended rules)', () => {
  it.each([
    ['body transport', {}],
    ['cookie transport', { refreshTokenTransport: 'cookie' as const }],
    ['both transports, another prefix, mounted under /api', { refreshTokenTransport: 'both' as const, prefix: '/v2/auth', mountPath: '/api' }],
    ['the activity history on', { sessionActivity: true }],
    ['DPoP required (the DPoP header, scheme and error)', { dpop: 'required' as const }],
    ['the Shared Signals transmitter and its stream endpoints on', { ssfTransmitter: true, ssfStreamEndpoints: true }],
    ['the Shared Signals transmitter on, without the admin listing', { ssfTransmitter: true }],
  ])('%s: no errors and no warnings beyond the contract exceptions', async (_, settings) => {
    expect(await findings(openApiDocument(settings))).toEqual([]);
  });

  it('would catch what it checks: a public operation without `security` is reported', async () => {
    const document = structuredClone(openApiDocument()) as { paths: Record<string, Record<string, { security?: unknown }>> };
    delete document.paths['/auth/login/']!.post!.security;
    expect(await findings(document)).toEqual([expect.stringMatching(/^security-defined .*login/)]);
  });
});
