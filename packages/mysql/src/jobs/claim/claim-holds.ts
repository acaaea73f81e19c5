import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { clockedSql, loadSql, withRows } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';
import { applyFlowControl, type FlowOutcome, type FlowRow, holdFlowKeys } from '../flow-control/index.ts';

// Step 2 of the claim (docs/sharding.md, "Tenant-wide limits in the global keyspace"): the tenant
// slots and flow control holds its candidates need, taken in a transaction of their own on the
// global keyspace (`tenant_slots`, `flow_keys`, `flow_holds` are in `dsched_global` on Vitess; on
// one primary the same tables of the one database), on a connection of the pool other than the
// shard's transaction's, and committed before the shard's transaction starts an attempt. Each slot
// and hold names the attempt the claim opens (attempt + 1) and runs out with the claim's lease, so
// if the shard's transaction fails after this one committed, they expire: the tenant runs under its
// limit for a lease period, never over it (calls in flight ≤ holds committed).

const CLAIM_SLOTS_PART = clockedSql(
  loadSql(import.meta.url, './claim-slots-part.sql')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n'),
);
const CLAIM_SLOTS_HOLD = clockedSql(loadSql(import.meta.url, './claim-slots-hold.sql'));

/** What step 2 needs of a candidate (claim-read.sql's columns, and its tenant's limit). */
export interface HoldRow extends FlowRow {
  attempt: number;
  tenant: { maxConcurrency: number | null };
}

/** claim-slots-part.sql, one part per limited tenant. */
interface FreeSlotRow extends RowDataPacket {
  tenant_id: Buffer;
  slot: number;
}

export interface Holds {
  /** The slots held for the jobs the claim takes: job id (hex) → slot. */
  slots: Map<string, number>;
  /** Jobs of tenants at their limit (no free slot): the shard's transaction defers them. */
  tenantDeferred: Set<string>;
  /** Flow control's decision: the jobs admitted (holds written), those deferred and until when. */
  flow: FlowOutcome;
}

const NO_HOLDS: Holds = {
  slots: new Map(),
  tenantDeferred: new Set(),
  flow: { admitted: new Set(), deferredUntil: new Map(), missing: [] },
};

/**
 * Takes the slots and flow holds of `rows` (in claim order) in one transaction on the global
 * keyspace, committed on return. No transaction, and no round trip, when none of them belongs to a
 * limited tenant or names a flow control key.
 */
export async function takeHolds(
  pool: Pool,
  rows: readonly HoldRow[],
  dbNow: Date,
  args: { leaseSeconds: number; flowDeferMs?: number | undefined; at?: Date | null | undefined },
): Promise<Holds> {
  const limited = (r: HoldRow) => r.tenant.maxConcurrency !== null;
  if (!rows.some((r) => limited(r) || r.flow_key !== null)) return NO_HOLDS;
  return withTransaction(pool, async (conn) => {
    const free = await takeSlots(conn, rows, args.at);
    const tenantDeferred = new Set(rows.filter((r) => limited(r) && !free.has(r.hexId)).map((r) => r.hexId));
    const withSlot = rows.filter((r) => !tenantDeferred.has(r.hexId));
    // Flow control after the tenant's slots: a key's rate is spent only on jobs that can start.
    const flow = await applyFlowControl(conn, withSlot, dbNow, args.flowDeferMs ?? 100, args.at);
    const claimed = withSlot.filter((r) => r.flow_key === null || flow.admitted.has(r.hexId));
    const slots = new Map<string, number>();
    const held = claimed.filter((r) => free.has(r.hexId));
    if (held.length > 0) {
      for (const r of held) slots.set(r.hexId, free.get(r.hexId)!);
      const hold = withRows(
        CLAIM_SLOTS_HOLD(args.at),
        ['tenant_id', 'slot', 'job_id', 'attempt'],
        held.map((r) => [r.tenant_id, free.get(r.hexId), r.id, Number(r.attempt) + 1]),
      );
      await conn.query(hold.sql, [...hold.params, args.leaseSeconds]);
    }
    await holdFlowKeys(
      conn,
      claimed.filter((r) => r.flow_key !== null),
      args.leaseSeconds,
      args.at,
    );
    return { slots, tenantDeferred, flow };
  });
}

/**
 * Locks free slots for the candidates of limited tenants, at most one per candidate, in claim
 * order; returns job id (hex) → slot. One statement whatever the number of tenants.
 */
async function takeSlots(
  conn: PoolConnection,
  rows: readonly HoldRow[],
  at: Date | null | undefined,
): Promise<Map<string, number>> {
  const hex = (b: Buffer) => b.toString('hex');
  const wanted = new Map<string, HoldRow[]>();
  for (const r of rows) {
    if (r.tenant.maxConcurrency === null) continue;
    const list = wanted.get(hex(r.tenant_id)) ?? [];
    list.push(r);
    wanted.set(hex(r.tenant_id), list);
  }
  const assigned = new Map<string, number>();
  if (wanted.size === 0) return assigned;
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const jobs of wanted.values()) {
    parts.push(CLAIM_SLOTS_PART(at));
    params.push(jobs[0]!.tenant_id, jobs[0]!.tenant.maxConcurrency, jobs.length);
  }
  const [free] = await conn.query<FreeSlotRow[]>(parts.join('\nUNION ALL\n'), params);
  const byTenant = new Map<string, number[]>();
  for (const s of free) {
    const list = byTenant.get(hex(s.tenant_id)) ?? [];
    list.push(Number(s.slot));
    byTenant.set(hex(s.tenant_id), list);
  }
  for (const [tenant, jobs] of wanted) {
    const slots = byTenant.get(tenant) ?? [];
    jobs.forEach((job, i) => {
      if (i < slots.length) assigned.set(job.hexId, slots[i]!);
    });
  }
  return assigned;
}
