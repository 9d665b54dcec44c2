import { STORE_NAMES, type StoreName } from './config.js';

/** The stores whose guard reads are coalesced, so the setting has an on/off pair to measure. */
export const COALESCING_STORES = ['postgres', 'mariadb', 'redis'] as const;
export type CoalescingStore = (typeof COALESCING_STORES)[number];
const isCoalescing = (store: StoreName): store is CoalescingStore => (COALESCING_STORES as readonly string[]).includes(store);

export const FRAMEWORKS = ['express', 'fastify', 'koa', 'hono'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export const ROUTE_KINDS = ['bare', 'jose', 'hand', 'sessauth', 'sessauth-uncoalesced', 'better-auth', 'express-session'] as const;
export type RouteKind = (typeof ROUTE_KINDS)[number];

export type Route =
  | { readonly kind: 'bare' }
  | { readonly kind: 'jose' }
  | { readonly kind: 'hand'; readonly store: StoreName }
  | { readonly kind: 'sessauth'; readonly store: StoreName }
  /** sessauth with JWT_COALESCE_SESSION_READS off, on the stores that batch reads (docs/coalesced-reads.md). */
  | { readonly kind: 'sessauth-uncoalesced'; readonly store: CoalescingStore }
  | { readonly kind: 'better-auth'; readonly store: 'sqlite' | 'postgres' }
  | { readonly kind: 'express-session'; readonly store: 'redis' };

/** One server process under load: a framework and what its `GET /me` does. */
export interface Variant {
  /** `express/sessauth-redis`: also the server's command-line argument. */
  readonly id: string;
  readonly framework: Framework;
  readonly route: Route;
}

export function routeName(route: Route): string {
  return 'store' in route ? `${route.kind}-${route.store}` : route.kind;
}

export function variantOf(framework: Framework, route: Route): Variant {
  return { id: `${framework}/${routeName(route)}`, framework, route };
}

export interface VariantFilter {
  readonly frameworks: readonly Framework[];
  readonly stores: readonly StoreName[];
  readonly peers: boolean;
  /** Only these kinds of route (all when absent). */
  readonly routes?: readonly RouteKind[] | undefined;
}

/**
 * Every variant for the chosen frameworks and stores: the framework floor, the
 * jose-only limit, the hand-written guard and sessauth per store (and sessauth with
 * coalesced reads off where the store coalesces them); the peers run
 * on Express (the framework their own docs lead with) and on the stores they share with us.
 */
export function listVariants(filter: VariantFilter): Variant[] {
  const variants: Variant[] = [];
  for (const framework of filter.frameworks) {
    variants.push(variantOf(framework, { kind: 'bare' }), variantOf(framework, { kind: 'jose' }));
    for (const store of STORE_NAMES.filter((s) => filter.stores.includes(s))) {
      variants.push(variantOf(framework, { kind: 'hand', store }), variantOf(framework, { kind: 'sessauth', store }));
      if (isCoalescing(store)) variants.push(variantOf(framework, { kind: 'sessauth-uncoalesced', store }));
    }
  }
  if (filter.peers && filter.frameworks.includes('express')) {
    if (filter.stores.includes('sqlite')) variants.push(variantOf('express', { kind: 'better-auth', store: 'sqlite' }));
    if (filter.stores.includes('postgres')) variants.push(variantOf('express', { kind: 'better-auth', store: 'postgres' }));
    if (filter.stores.includes('redis')) variants.push(variantOf('express', { kind: 'express-session', store: 'redis' }));
  }
  return filter.routes === undefined ? variants : variants.filter((v) => filter.routes!.includes(v.route.kind));
}

export function parseVariant(id: string): Variant {
  const [framework, name] = id.split('/') as [Framework, string];
  if (!FRAMEWORKS.includes(framework) || name === undefined) throw new Error(`unknown variant ${id}`);
  if (name === 'bare' || name === 'jose') return variantOf(framework, { kind: name });
  const dash = name.lastIndexOf('-');
  const kind = name.slice(0, dash);
  const store = name.slice(dash + 1) as StoreName;
  if (!STORE_NAMES.includes(store)) throw new Error(`unknown store in ${id}`);
  if (kind === 'hand' || kind === 'sessauth') return variantOf(framework, { kind, store });
  if (kind === 'sessauth-uncoalesced' && isCoalescing(store)) return variantOf(framework, { kind, store });
  if (kind === 'better-auth' && (store === 'sqlite' || store === 'postgres')) return variantOf(framework, { kind, store });
  if (kind === 'express-session' && store === 'redis') return variantOf(framework, { kind, store });
  throw new Error(`unknown variant ${id}`);
}
