import fc from 'fast-check';
import { grammarString } from '../kit/grammar-arbitraries.js';

/** The trusted-proxy lists the client-IP properties run under (parsed by the real `parseCidrs`). */
export const TRUSTED_PROXY_LISTS: readonly (readonly string[])[] = [
  [],
  ['127.0.0.0/8'],
  ['10.0.0.0/8', '::1'],
  ['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::ffff:192.168.0.0/112'],
];

/** Addresses inside some of the lists above, so chains of trusted hops are common. */
const proxyLike = fc.oneof(
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
  fc.nat(255).map((d) => `127.0.0.${d}`),
  fc.constantFrom('::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:10.1.2.3', 'fd00::1', 'FD12:3456::abcd', '::ffff:192.168.1.9'),
);

const ipPieces = fc.oneof(
  fc.constantFrom('0', '1', '01', '00', '127', '255', '256', '999', '0x7f', '0177', '4294967295', 'ffff', 'FFFF', 'db8', '2001', 'fe80'),
  fc.nat(65535).map((n) => n.toString(16)),
  fc.nat(300).map(String),
);

/**
 * IP-literal-like text: valid IPv4 and IPv6 (including mapped and embedded-IPv4 forms),
 * the inet_aton forms ipaddr.js accepts but we must not (`127.1`, `0x7f.0.0.1`),
 * zone ids, brackets, ports, mixed case, and grammar-built junk.
 */
export const ipLikeText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.ipV4() },
  { weight: 3, arbitrary: fc.ipV6() },
  { weight: 3, arbitrary: proxyLike },
  { weight: 2, arbitrary: fc.ipV4Extended() },
  { weight: 1, arbitrary: fc.ipV4().map((ip) => `::ffff:${ip}`) },
  { weight: 1, arbitrary: fc.ipV4().map((ip) => `::${ip}`) },
  { weight: 1, arbitrary: fc.ipV6().map((ip) => `${ip}%eth0`) },
  { weight: 1, arbitrary: fc.ipV6().map((ip) => `[${ip}]`) },
  { weight: 1, arbitrary: fc.ipV4().map((ip) => `${ip}:8080`) },
  { weight: 1, arbitrary: fc.mixedCase(fc.ipV6()) },
  { weight: 4, arbitrary: grammarString({ tokens: ipPieces, separators: ['.', ':', '::', '%', '[', ']', '/', ' ', '\t'], maxRepeat: 200 }) },
);

/** One X-Forwarded-For header value: hops joined by list separators, or junk. */
export const forwardedForValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.oneof(proxyLike, ipLikeText), fc.constantFrom(',', ', ', ' ,', ',\t', ' , ', ',,')), { maxLength: 12 })
      .map((hops) => hops.map(([hop, separator], i) => (i === 0 ? hop : `${separator}${hop}`)).join('')),
  },
  { weight: 1, arbitrary: grammarString({ tokens: ipLikeText, separators: [',', ', ', ' ', '\t', ';', '"'], maxRepeat: 4000 }) },
  // RFC 9110 lets spaces and tabs surround list items: long runs of them, at the start
  // of a hop or in its middle, up to the header's length bound.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('', '"', '1', '1.2.3.4', ','), fc.integer({ min: 1, max: 2047 }), fc.constantFrom(' ', '\t', ' \t'), ipLikeText)
      .map(([before, length, blank, hop]) => `${before}${blank.repeat(Math.ceil(length / blank.length))}${hop}`),
  },
);
