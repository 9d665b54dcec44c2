/**
 * RFC 9651 (Structured Field Values) strings, the form every DBSC header value takes:
 * `"..."` with `\"` and `\\` the only escapes, printable ASCII inside. Parameters after the
 * closing quote are ignored, as the DBSC draft says of `Secure-Session-Response` and
 * `Sec-Secure-Session-Id`.
 */
export function parseStructuredString(field: string): string | undefined {
  const text = field.trim();
  if (!text.startsWith('"')) return undefined;
  let value = '';
  for (let i = 1; i < text.length; i += 1) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return undefined;
    if (char === '\\') {
      const next = text[i + 1];
      if (next !== '"' && next !== '\\') return undefined;
      value += next;
      i += 1;
    } else if (char === '"') {
      const rest = text.slice(i + 1);
      return rest === '' || rest.startsWith(';') ? value : undefined;
    } else {
      value += char;
    }
  }
  return undefined;
}

/** `value` as an RFC 9651 string (our values are printable ASCII; anything else is a programmer error). */
export function structuredString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error('structured string: printable ASCII only');
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
