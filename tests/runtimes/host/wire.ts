/**
 * The JSON both sides of the runtime harness speak: Dates travel tagged (`{"$date": iso}`),
 * Maps as their entries (`{"$map": [[key, value], ...]}`, the store's `listActivity` answers one),
 * failures as `{"error": {"name", "message"}}` so a `StoreUnavailableError` thrown on one
 * side is rethrown as one on the other (the engine's 503 rule depends on the class).
 */
export interface WireFailure {
  readonly error: { readonly name: string; readonly message: string };
}

export type WireAnswer = { readonly value: unknown } | WireFailure;

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, converted: unknown) {
    const original = this[key];
    if (original instanceof Date) return { $date: original.toISOString() };
    if (original instanceof Map) return { $map: [...original.entries()] };
    return converted;
  });
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && typeof (value as { $date?: unknown }).$date === 'string') {
      return new Date((value as { $date: string }).$date);
    }
    if (typeof value === 'object' && value !== null && Array.isArray((value as { $map?: unknown }).$map)) {
      return new Map((value as { $map: [unknown, unknown][] }).$map);
    }
    return value;
  });
}

export function failureOf(error: unknown): WireFailure {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return { error: { name, message } };
}
