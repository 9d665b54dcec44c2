/**
 * The loads every variant is measured at in each round. Saturation is closed-loop (wrk): each
 * connection sends its next request when the last is answered, so it finds the variant's
 * throughput and what a request waits at that throughput. A paced load is open-loop at a fixed
 * arrival rate, the same for every variant of a framework (a fraction of the framework's
 * jose-only rate at the first saturated load in the same round): what a user feels at a load
 * the server can carry.
 */
export type LoadPoint =
  | { readonly kind: 'saturated'; readonly connections: number }
  | { readonly kind: 'paced'; readonly fractionOfJose: number; readonly connections: number };

/** `saturated-32`, `paced-50%`: the `load` of a sample. */
export function loadName(point: LoadPoint): string {
  return point.kind === 'saturated' ? `saturated-${point.connections}` : `paced-${Math.round(point.fractionOfJose * 100)}%`;
}

export function describeLoad(name: string): string {
  const saturated = /^saturated-(\d+)$/.exec(name);
  if (saturated !== null) return `saturation, ${saturated[1]} connections`;
  const paced = /^paced-(\d+)%$/.exec(name);
  return paced === null ? name : `fixed offered load, ${paced[1]}% of jose-only's saturated rate`;
}

/** The loads of a run: the main saturation, then more connections, then the paced load (which needs the first). */
export function loadPoints(connections: number, highConnections: number, pacedFraction: number): LoadPoint[] {
  const points: LoadPoint[] = [{ kind: 'saturated', connections }];
  if (highConnections > 0 && highConnections !== connections) points.push({ kind: 'saturated', connections: highConnections });
  if (pacedFraction > 0) points.push({ kind: 'paced', fractionOfJose: pacedFraction, connections });
  return points;
}
