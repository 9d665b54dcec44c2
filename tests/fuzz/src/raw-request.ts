/** The live credentials a generated request may refer to by placeholder. */
export interface Material {
  readonly csrfSecret: string;
  readonly csrfToken: string;
  readonly access: string;
  readonly refresh: string;
  readonly sessionId: string;
}

/**
 * How the body travels: `exact` Content-Length, one `short` of the bytes sent (an
 * upload cut off), one `long` (the surplus is garbage after the request), `chunked`,
 * `bad-chunked` (a broken chunk size), or `none` (no framing header at all).
 */
export type Framing = 'exact' | 'short' | 'long' | 'chunked' | 'bad-chunked' | 'none';

/** `whole`: sent at once, then half-closed; `split`: in pieces; `abort`: a prefix, then the socket is destroyed. */
export type Delivery = 'whole' | 'split' | 'abort';

/** A generated request before its placeholders (`{ACCESS}`, `{REFRESH}`, `{CSRF_TOKEN}`, `{CSRF_SECRET}`, `{SID}`) are filled. */
export interface RawRequestSpec {
  readonly method: string;
  readonly target: string;
  readonly version: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** Bytes as a latin1 string (so non-UTF-8 bodies survive). */
  readonly body: string;
  readonly framing: Framing;
  readonly delivery: Delivery;
  /** Where an aborted delivery stops, as a fraction of the request's bytes. */
  readonly abortAt: number;
}

function fill(text: string, material: Material): string {
  return text
    .replaceAll('{ACCESS}', material.access)
    .replaceAll('{REFRESH}', material.refresh)
    .replaceAll('{CSRF_TOKEN}', material.csrfToken)
    .replaceAll('{CSRF_SECRET}', material.csrfSecret)
    .replaceAll('{SID}', material.sessionId);
}

/** The request's bytes, placeholders filled. A trailing `Connection: close` keeps each exchange to one socket. */
export function renderRequest(spec: RawRequestSpec, material: Material): Buffer {
  const body = Buffer.from(fill(spec.body, material), 'latin1');
  const lines = [`${spec.method} ${fill(spec.target, material)}${spec.version === '' ? '' : ` ${spec.version}`}`];
  for (const [name, value] of spec.headers) lines.push(`${name}: ${fill(value, material)}`);
  let payload = body;
  switch (spec.framing) {
    case 'exact':
      lines.push(`Content-Length: ${body.length}`);
      break;
    case 'short':
      lines.push(`Content-Length: ${body.length + 1 + (body.length >> 1)}`);
      break;
    case 'long':
      lines.push(`Content-Length: ${body.length >> 1}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([
        Buffer.from(body.length > 0 ? `${body.length.toString(16)}\r\n` : '', 'latin1'),
        body,
        Buffer.from(body.length > 0 ? '\r\n0\r\n\r\n' : '0\r\n\r\n', 'latin1'),
      ]);
      break;
    case 'bad-chunked':
      lines.push('Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from('zz\r\n', 'latin1'), body, Buffer.from('\r\n', 'latin1')]);
      break;
    case 'none':
      break;
  }
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** A one-line description for failure messages (the bytes, cut). */
export function describeRequest(spec: RawRequestSpec, material: Material): string {
  return JSON.stringify(renderRequest(spec, material).toString('latin1').slice(0, 600));
}
