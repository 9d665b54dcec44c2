import { gzipSync } from 'node:zlib';
import { json, type Responder } from './local-https-server.js';

export const PUBLIC_IP = '81.2.69.160';
const FIVE_MB = 5 * 1024 * 1024;
export const LONDON = {
  ip: PUBLIC_IP,
  city: 'London',
  region: 'England',
  country_name: 'United Kingdom',
  country_code: 'GB',
  latitude: 51.5,
  longitude: -0.12,
};

/** Every way a lookup service can misbehave; each must reject with the
 * reason given (the login then records no location). */
export const HOSTILE_ANSWERS: Record<string, readonly [Responder, RegExp]> = {
  'a redirect': [
    (req, res) => {
      if (req.url === '/elsewhere/') json(res, LONDON);
      else res.writeHead(302, { location: '/elsewhere/' }).end();
    },
    /status 302/,
  ],
  'a 5 MB answer (chunked, no length)': [
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"city":"');
      res.end(`${'x'.repeat(FIVE_MB)}"}`);
    },
    /too large/,
  ],
  'a 5 MB answer with its Content-Length': [
    (_req, res) => {
      const body = `{"city":"${'x'.repeat(FIVE_MB)}"}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) }).end(body);
    },
    /too large/,
  ],
  'a small gzip answer that inflates to 5 MB': [
    (_req, res) => {
      const bomb = gzipSync(`{"city":"${' '.repeat(FIVE_MB)}"}`);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb);
    },
    /too large/,
  ],
  'malformed JSON': [(_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"city": "London",'), /JSON/],
  'a JSON array': [(_req, res) => json(res, [LONDON]), /not a JSON object/],
  'out-of-range coordinates': [(_req, res) => json(res, { ...LONDON, latitude: 91.5, longitude: -200 }), /out of range/],
  'a wrongly typed field': [(_req, res) => json(res, { ...LONDON, city: { name: 'London' } }), /bad city/],
  'a server error': [(_req, res) => json(res, { error: true, reason: 'boom' }, 500), /status 500/],
};
