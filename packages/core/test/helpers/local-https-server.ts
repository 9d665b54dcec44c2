import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';

export type Responder = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalHttpsServer {
  /** `https://127.0.0.1:<port>` */
  readonly origin: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  /** Header sets of those requests. */
  readonly headers: IncomingMessage['headers'][];
  /** What the server does with the next requests. */
  respond: Responder;
  /** A `fetch` that trusts this server's self-signed certificate (and nothing else extra). */
  readonly fetch: typeof fetch;
  /** The certificate (PEM), for a child process's NODE_EXTRA_CA_CERTS. */
  readonly certificate: string;
  close(): Promise<void>;
}

/** A throwaway self-signed certificate for 127.0.0.1, made with the system's openssl. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sessauth-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An HTTPS server on the loopback interface only: no test traffic leaves the machine. */
export async function startLocalHttpsServer(): Promise<LocalHttpsServer> {
  const { key, cert } = selfSignedCertificate();
  const requests: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const state: { respond: Responder } = { respond: (_req, res) => res.writeHead(404).end() };
  const server: Server = createServer({ key, cert }, (req, res) => {
    requests.push(req.url ?? '');
    headers.push(req.headers);
    state.respond(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ connect: { ca: cert } });
  const trustingFetch = ((input: string | URL, init?: RequestInit) =>
    undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
  return {
    origin: `https://127.0.0.1:${port}`,
    requests,
    headers,
    get respond() {
      return state.respond;
    },
    set respond(value: Responder) {
      state.respond = value;
    },
    fetch: trustingFetch,
    certificate: cert,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}

export function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}
