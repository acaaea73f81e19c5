// Dispatch share against weight share, and lateness, by tenant class: bounded labels, never a
// tenant id. A tenant's class is its rank by calls dispatched in the previous window: `top1`, `top5`
// (ranks 2–5), `other`. During a flood the flooder is `top1` and the quiet tenants are `other`, so
// the quiet tenants' lateness and share are one series each, whatever their number.

export const TENANT_CLASSES = ['top1', 'top5', 'other'] as const;
export type TenantClass = (typeof TENANT_CLASSES)[number];

/** Past this many tenants in one window the rest are counted as one (memory stays bounded). */
const MAX_TENANTS_PER_WINDOW = 100_000;

export interface ClassShares {
  /** The class's share of the calls dispatched in the window (0–1). */
  dispatch: Record<TenantClass, number>;
  /** The class's share of the weight of the tenants dispatched in the window (0–1). */
  weight: Record<TenantClass, number>;
}

export class ShareMeter {
  #counts = new Map<string, number>();
  #weights = new Map<string, number>();
  #classes = new Map<string, TenantClass>();
  #since: number;
  readonly #windowMs: number;
  readonly #monotonicMs: () => number;
  readonly #onWindow: (shares: ClassShares) => void;

  constructor(windowMs: number, monotonicMs: () => number, onWindow: (shares: ClassShares) => void) {
    this.#windowMs = windowMs;
    this.#monotonicMs = monotonicMs;
    this.#onWindow = onWindow;
    this.#since = monotonicMs();
  }

  /** The tenant's class, from the previous window's ranking. */
  classOf(tenantId: string): TenantClass {
    return this.#classes.get(tenantId) ?? 'other';
  }

  /** One call dispatched for the tenant. */
  record(tenantId: string, weight: number): void {
    if (this.#monotonicMs() - this.#since >= this.#windowMs) this.roll();
    if (!this.#counts.has(tenantId) && this.#counts.size >= MAX_TENANTS_PER_WINDOW) tenantId = '';
    this.#counts.set(tenantId, (this.#counts.get(tenantId) ?? 0) + 1);
    this.#weights.set(tenantId, weight);
  }

  /** Ends the window: ranks its tenants into classes and reports the classes' shares. */
  roll(): void {
    const ranked = [...this.#counts].sort((a, b) => b[1] - a[1]);
    const classes = new Map<string, TenantClass>();
    ranked.forEach(([tenant], i) => {
      if (i === 0) classes.set(tenant, 'top1');
      else if (i < 5) classes.set(tenant, 'top5');
    });
    const zero = () => ({ top1: 0, top5: 0, other: 0 });
    const dispatch = zero();
    const weight = zero();
    let calls = 0;
    let weights = 0;
    for (const [tenant, n] of ranked) {
      const c = classes.get(tenant) ?? 'other';
      const w = this.#weights.get(tenant) ?? 1;
      dispatch[c] += n;
      weight[c] += w;
      calls += n;
      weights += w;
    }
    for (const c of TENANT_CLASSES) {
      dispatch[c] = calls > 0 ? dispatch[c] / calls : 0;
      weight[c] = weights > 0 ? weight[c] / weights : 0;
    }
    this.#classes = classes;
    this.#counts = new Map();
    this.#weights = new Map();
    this.#since = this.#monotonicMs();
    if (calls > 0) this.#onWindow({ dispatch, weight });
  }
}
