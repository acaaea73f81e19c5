// Weighted fair share between tenants: start-time fair queueing (SFQ) with integer virtual time.
//
// A job gets its start tag when it becomes runnable (due): tag = max(V, tenant's finish tag), and
// the tenant's finish tag becomes tag + stride(weight). The claim orders by priority, then tag, so
// backlogged tenants interleave in proportion to their weights (stride scheduling), and a tenant
// that was idle starts at the fleet's virtual time V, never below it: idle time banks no credit.
// V is the head of the lane's tagged queue (the smallest pending tag), or when nothing tagged is
// pending, the largest tag handed out so far; it never moves back (docs/decisions.md, D23).
// Integers only, so the same inputs give the same tags on every executor.

/** Virtual-time units one job of a weight-1 tenant costs. Weight 1000 costs 1000, weight 0.001 costs 1e9. */
export const FAIR_STRIDE_UNIT = 1_000_000;
export const MIN_TENANT_WEIGHT = 0.001;
export const MAX_TENANT_WEIGHT = 1000;
export const DEFAULT_TENANT_WEIGHT = 1;

/** The virtual time one job costs a tenant of this weight: K / weight, at least 1. */
export function strideOf(weight: number): number {
  const w = Number.isFinite(weight) && weight > 0 ? weight : DEFAULT_TENANT_WEIGHT;
  return Math.max(1, Math.round(FAIR_STRIDE_UNIT / w));
}

/** A lane's stored virtual clock: V so far, and the largest tag handed out. */
export interface FairClock {
  vt: number;
  maxTag: number;
}

/**
 * The fleet's current virtual time: the head of the tagged queue when there is one, else the
 * largest tag handed out (everything tagged was claimed: SFQ's idle rule), never below V so far.
 */
export function fleetVirtualTime(clock: FairClock, headTag: number | null): number {
  return Math.max(clock.vt, headTag ?? clock.maxTag);
}

export interface FairTenant {
  weight: number;
  /** The tenant's finish tag: where its next job starts unless V is ahead. 0 for a new tenant. */
  vt: number;
}

export interface RunnableJob {
  id: string;
  tenantId: string;
}

export interface FairTagging {
  /** Job id → start tag. */
  tags: Map<string, number>;
  /** Tenant id → finish tag after this batch (only tenants in the batch). */
  tenantVts: Map<string, number>;
  /** The clock to store: V, and the largest tag handed out. */
  clock: FairClock;
}

/**
 * Tags a batch of jobs that became runnable, in the order given (due order): each job starts at
 * max(V, its tenant's finish tag) and advances that tenant by its stride. A tenant missing from
 * `tenants` has weight 1 and finish tag 0.
 */
export function tagRunnableJobs(
  clock: FairClock,
  headTag: number | null,
  tenants: ReadonlyMap<string, FairTenant>,
  jobs: readonly RunnableJob[],
): FairTagging {
  const v = fleetVirtualTime(clock, headTag);
  const vts = new Map<string, number>();
  const tags = new Map<string, number>();
  let maxTag = clock.maxTag;
  for (const job of jobs) {
    const tenant = tenants.get(job.tenantId);
    const start = Math.max(v, vts.get(job.tenantId) ?? tenant?.vt ?? 0);
    tags.set(job.id, start);
    vts.set(job.tenantId, start + strideOf(tenant?.weight ?? DEFAULT_TENANT_WEIGHT));
    if (start > maxTag) maxTag = start;
  }
  return { tags, tenantVts: vts, clock: { vt: v, maxTag } };
}
