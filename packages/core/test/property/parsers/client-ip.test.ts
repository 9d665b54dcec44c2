import fc from 'fast-check';
import { describe, it } from 'vitest';
import { formatIp, normalizeIp, parseIp } from '../../../src/net/ip-address.js';
import { cidrListContains, parseCidrs, type CidrList } from '../../../src/net/parse-cidrs.js';
import { resolveClientIp, type ResolveClientIpInput } from '../../../src/net/resolve-client-ip.js';
import { fuzzParameters, fuzzTimeoutMs } from '../kit/fuzz-settings.js';
import { headerValues } from '../kit/grammar-arbitraries.js';
import { describeThrow, ensure, timedParserProperty } from '../kit/timed-parser-property.js';
import { forwardedForValue, ipLikeText, TRUSTED_PROXY_LISTS } from './ip-arbitraries.js';

/** 10^5 generated inputs per parser, in CI too. */
const RUNS = { full: 100_000 };
const PROXY_LISTS: readonly CidrList[] = TRUSTED_PROXY_LISTS.map((list) => parseCidrs(list));

/** Four decimal octets 0..255 without leading zeros, checked without a regular expression. */
function isStrictIpv4(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every((part) => part !== '' && [...part].every((c) => c >= '0' && c <= '9') && String(Number(part)) === part && Number(part) <= 255)
  );
}

describe('IP literal (parseIp), generated inputs', () => {
  it(
    'never throws, answers a canonical address or null, accepts exactly the strict IPv4 forms, and stays fast',
    () => {
      fc.assert(
        timedParserProperty(ipLikeText, parseIp, (text, outcome) => {
          if (!outcome.ok) throw new Error(`parseIp threw ${describeThrow(outcome.error)}`);
          const ip = outcome.value;
          const label = () => JSON.stringify(text);
          if (/^[0-9.]+$/.test(text)) ensure((ip !== null) === isStrictIpv4(text), () => `IPv4 decision is wrong for ${label()}`);
          if (/[%[\]/\s]/.test(text)) ensure(ip === null, () => `zone ids, brackets, prefixes and spaces are malformed: ${label()}`);
          if (ip === null) return;
          const canonical = formatIp(ip);
          ensure(normalizeIp(canonical) === canonical, () => `canonical text ${canonical} is not a fixed point (from ${label()})`);
          if (isStrictIpv4(text)) ensure(canonical === text, () => `strict IPv4 ${label()} came back as ${canonical}`);
        }),
        fuzzParameters('parseIp', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );

  it(
    'accepts every well-formed IPv4 and IPv6 address fast-check can write',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.ipV4(),
            fc.ipV6(),
            fc.ipV4().map((ip) => `::ffff:${ip}`),
          ),
          (text) => {
            ensure(parseIp(text) !== null, () => `refused ${text}`);
          },
        ),
        fuzzParameters('parseIp/valid', { full: 10_000 }),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});

interface ForwardedCase {
  readonly input: ResolveClientIpInput;
  readonly trustedList: number;
}

const forwardedCases: fc.Arbitrary<ForwardedCase> = fc
  .record({
    peer: fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 12, arbitrary: ipLikeText }),
    forwardedFor: headerValues(forwardedForValue),
    trustedList: fc.nat(PROXY_LISTS.length - 1),
    maxHeaderLength: fc.constantFrom(2048, 2048, 64),
    maxHops: fc.constantFrom(10, 10, 3),
  })
  .map(({ peer, forwardedFor, trustedList, maxHeaderLength, maxHops }) => ({
    trustedList,
    input: { peerAddress: peer, forwardedFor, trustedProxies: PROXY_LISTS[trustedList]!, maxHeaderLength, maxHops },
  }));

/**
 * The contract (SPEC "Design rules"), written independently of the implementation:
 * X-Forwarded-For counts only from a trusted peer; the chain is bounded in length and
 * hops and validated whole (one malformed hop: the peer is used); it is scanned right
 * to left past trusted proxies; when every hop is trusted, the answer is the peer.
 */
function expectedClientIp(input: ResolveClientIpInput): string | null {
  const peer = input.peerAddress === null ? null : parseIp(input.peerAddress);
  if (peer === null) return null;
  const trusted = (ip: NonNullable<ReturnType<typeof parseIp>>) => cidrListContains(input.trustedProxies, ip);
  if (!trusted(peer) || input.forwardedFor === undefined || input.forwardedFor.length === 0) return formatIp(peer);
  const joined = input.forwardedFor.join(',');
  const items = joined.split(',');
  if (joined.length > input.maxHeaderLength || items.length > input.maxHops) return formatIp(peer);
  const hops = items.map((item) => parseIp(trimSpacesAndTabs(item)));
  if (hops.some((hop) => hop === null)) return formatIp(peer);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted(hops[i]!)) return formatIp(hops[i]!);
  }
  return formatIp(peer);
}

/** RFC 9110 list items may have spaces and tabs around them (a loop: no regular expression to trust). */
function trimSpacesAndTabs(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++;
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return text.slice(start, end);
}

describe('X-Forwarded-For resolution (resolveClientIp), generated inputs', () => {
  it(
    'never throws, answers what the contract says, and stays fast',
    () => {
      fc.assert(
        timedParserProperty(
          forwardedCases,
          (c) => resolveClientIp(c.input),
          (c, outcome) => {
            if (!outcome.ok) throw new Error(`resolveClientIp threw ${describeThrow(outcome.error)}`);
            const expected = expectedClientIp(c.input);
            ensure(outcome.value === expected, () => `answered ${outcome.value}, the contract says ${expected} (trusted list #${c.trustedList})`);
          },
        ),
        fuzzParameters('resolveClientIp', RUNS),
      );
    },
    fuzzTimeoutMs(RUNS),
  );
});
