/**
 * The values of a statement the core writes for a store, in the order its text names them:
 * `slot(value)` records one and answers its placeholder (`placeholder(i)` for the i-th, 1-based),
 * so text and values cannot drift apart.
 */
export function statementValues(placeholder: (index: number) => string): { parameters: unknown[]; slot(value: unknown): string } {
  const parameters: unknown[] = [];
  return {
    parameters,
    slot(value) {
      parameters.push(value);
      return placeholder(parameters.length);
    },
  };
}
