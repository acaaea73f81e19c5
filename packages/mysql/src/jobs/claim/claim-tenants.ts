import type { Pool, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../../sql.ts';

const CLAIM_TENANTS = loadSql(import.meta.url, './claim-tenants.sql');

/** What a claim needs of a job's tenant (claim-tenants.sql); a tenant whose row is gone has none. */
export interface ClaimTenant {
  /** Sealed as stored (the executor opens it). */
  signingSecret: string | null;
  maxConcurrency: number | null;
  weight: number | null;
}

interface TenantRow extends RowDataPacket {
  id: Buffer;
  signing_secret: string | null;
  max_concurrency: number | null;
  weight: string | number | null;
}

const GONE: ClaimTenant = { signingSecret: null, maxConcurrency: null, weight: null };

/**
 * The tenants of a claim's jobs, read apart from the claim's transaction (docs/sharding.md: on
 * Vitess `tenants` is in the global keyspace, the claim's rows on one shard). Each tenant read is
 * kept `ttlMs` (0: read every claim), so a changed limit or weight applies within that time; the
 * signing secret never changes once the tenant exists (a reseal keeps it). Reads go through the
 * pool, on a connection other than the claim's, only for the tenants it does not hold.
 */
export class ClaimTenants {
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #held = new Map<string, { tenant: ClaimTenant; at: number }>();

  constructor(options: { ttlMs: number; monotonicMs?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#now = options.monotonicMs ?? (() => performance.now());
  }

  /** The tenants of `ids` (binary), by id in hex; one primary-key read for those not held. */
  async get(pool: Pool, ids: readonly Buffer[]): Promise<Map<string, ClaimTenant>> {
    const now = this.#now();
    const out = new Map<string, ClaimTenant>();
    const missing = new Map<string, Buffer>();
    for (const id of ids) {
      const key = id.toString('hex');
      if (out.has(key) || missing.has(key)) continue;
      const held = this.#held.get(key);
      if (held !== undefined && now - held.at < this.#ttlMs) out.set(key, held.tenant);
      else missing.set(key, id);
    }
    if (missing.size === 0) return out;
    const [rows] = await pool.query<TenantRow[]>(CLAIM_TENANTS, [[...missing.values()]]);
    for (const r of rows) {
      const key = r.id.toString('hex');
      const tenant: ClaimTenant = {
        signingSecret: r.signing_secret,
        maxConcurrency: r.max_concurrency === null ? null : Number(r.max_concurrency),
        weight: r.weight === null ? null : Number(r.weight),
      };
      out.set(key, tenant);
      if (this.#ttlMs > 0) this.#held.set(key, { tenant, at: now });
    }
    for (const key of missing.keys()) if (!out.has(key)) out.set(key, GONE);
    // A claim's jobs share a few tenants; past this many held, start over rather than grow.
    if (this.#held.size > 10_000) this.#held.clear();
    return out;
  }
}
