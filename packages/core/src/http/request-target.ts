const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
const SINGLE_DOT = /^(?:\.|%2e)$/i;
const DOUBLE_DOT = /^(?:\.|%2e){2}$/i;

/**
 * The path the router matches, decided once for every adapter. An absolute-form
 * target (`GET http://host/auth/csrf/`, which RFC 9112 says a server must accept)
 * loses its scheme and authority; dot segments (`.`, `..` and their `%2e` spellings)
 * are resolved as the WHATWG URL parser does. Fetch runtimes hand us paths already
 * normalised that way, so Node adapters now route `/auth/./csrf/` exactly as they do.
 */
export function routablePath(path: string): string {
  let target = path;
  if (!target.startsWith('/')) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (absolute === null) return target;
    target = target.slice(absolute[0].length) || '/';
  }
  // Fast path: most paths have no dot segment at all.
  if (!target.includes('.') && !/%2e/i.test(target)) return target;
  const segments = target.slice(1).split('/');
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (SINGLE_DOT.test(segment)) {
      if (last) out.push('');
    } else if (DOUBLE_DOT.test(segment)) {
      out.pop();
      if (last) out.push('');
    } else {
      out.push(segment);
    }
  }
  return `/${out.join('/')}`;
}
