import { type SQL, sql } from 'drizzle-orm';

/**
 * A statement written by the core (`postgresLoginStatement`, `mariadbLoginStatement`) with its values
 * as drizzle's own parameters, so every driver binds them its way: the core writes `marker(i)` for
 * the i-th value (NUL cannot occur in an identifier or in the statement's own text), and `bound`
 * splits on it.
 */
const NUL = String.fromCharCode(0);
export const marker = (index: number): string => `${NUL}${index}${NUL}`;
const MARKER = new RegExp(`${NUL}(\\d+)${NUL}`);

export function bound(text: string, parameters: readonly unknown[]): SQL {
  const pieces = text.split(MARKER);
  return sql.join(pieces.map((piece, index) => (index % 2 === 0 ? sql.raw(piece) : sql`${parameters[Number(piece) - 1]}`)));
}
