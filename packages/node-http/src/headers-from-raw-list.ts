/**
 * Node's flat `rawHeaders` list (name, value, name, value...) as the core's header map:
 * lower-case names, every value of a repeated header kept in order, so the core (not
 * Node, which keeps the first) decides what a duplicate means.
 */
export function headersFromRawList(raw: readonly string[]): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const list = headers.get(name);
    if (list) list.push(raw[i + 1]!);
    else headers.set(name, [raw[i + 1]!]);
  }
  return headers;
}
