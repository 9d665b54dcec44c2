import type { CompiledQuery, Compilable } from 'kysely';

const SLOT_PREFIX = '\u0000sessauth-slot:';

/**
 * A stand-in value for a parameter that is filled in per call. Kysely compiles it
 * like any value, so its position in the parameter list marks the slot.
 */
export function slot<T>(name: string): T {
  return `${SLOT_PREFIX}${name}` as unknown as T;
}

/**
 * SQL texts of every prepared query. The optional driver helpers
 * (`withNamedStatements`, `withStatementCache`) keep server-side or driver-side
 * statements for these texts only: a fixed, small set, never ad-hoc SQL.
 */
const hotStatements = new Set<string>();

export function isHotStatement(sqlText: string): boolean {
  return hotStatements.has(sqlText);
}

type ParameterPlan = { readonly slot: string } | { readonly value: unknown };

/**
 * A query compiled once. Kysely builds and compiles a query on every call of a
 * builder, which costs more than the database round trip of a read by primary key;
 * here only the parameter array is made per call.
 */
export class PreparedQuery<Row, Slots extends string> {
  readonly #compiled: CompiledQuery<Row>;
  readonly #plan: readonly ParameterPlan[];

  constructor(query: Compilable<Row>, slots: readonly Slots[]) {
    this.#compiled = query.compile();
    hotStatements.add(this.#compiled.sql);
    this.#plan = this.#compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(SLOT_PREFIX) ? { slot: value.slice(SLOT_PREFIX.length) } : { value },
    );
    for (const name of slots) {
      if (!this.#plan.some((p) => 'slot' in p && p.slot === name)) {
        throw new Error(`prepared query has no parameter slot ${name}`);
      }
    }
  }

  /** The compiled query with this call's values in its slots. */
  bind(values: Readonly<Record<Slots, unknown>>): CompiledQuery<Row> {
    const parameters = this.#plan.map((p) => ('slot' in p ? values[p.slot as Slots] : p.value));
    return { ...this.#compiled, parameters };
  }

  get sql(): string {
    return this.#compiled.sql;
  }
}
