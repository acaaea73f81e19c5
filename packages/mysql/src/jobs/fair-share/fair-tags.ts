import { type FairTenant, type Lane, tagRunnableJobs } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { clockedSql, loadSql, withSearch } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';
import { ClaimTenants } from '../claim/claim-tenants.ts';
import { ALL_PARTITIONS } from '../claim/claims.ts';

const CLOCK_LOCK = loadSql(import.meta.url, './fair-clock-lock.sql');
const CLOCK_EXISTS = loadSql(import.meta.url, './fair-clock-exists.sql');
const CLOCK_INSERT = loadSql(import.meta.url, './fair-clock-insert.sql');
const UNTAGGED_SELECT = clockedSql(loadSql(import.meta.url, './fair-untagged-select.sql'));
const TENANTS_WALK = loadSql(import.meta.url, './fair-tenants-walk.sql');
const HEADS_SELECT = clockedSql(loadSql(import.meta.url, './fair-heads-select.sql'));
const HEAD = loadSql(import.meta.url, './fair-head.sql');
const TENANTS_READ = loadSql(import.meta.url, './fair-tenants-read.sql');
const TAGS_UPDATE = loadSql(import.meta.url, './fair-tags-update.sql');
const TENANT_CLOCKS_UPSERT = loadSql(import.meta.url, './fair-tenant-clocks-upsert.sql');
const CLOCK_UPDATE = loadSql(import.meta.url, './fair-clock-update.sql');

export interface TagArgs {
  lane: Lane;
  /**
   * The group of partitions tagged: one shard's (docs/sharding.md "Fair share per shard"). Its
   * lowest partition, the anchor, keys the shard's lane clock and tenant clocks, and every
   * statement of the pass is keyed by the group. Default: ALL_PARTITIONS (one primary).
   */
  partitions?: readonly number[];
  /** Where the pass reads its tenants' weights (default: read each pass, kept for none). */
  tenants?: ClaimTenants;
  /** At most this many jobs tagged by one pass. */
  limit: number;
  /** As ClaimArgs.leadMs: jobs due within this many milliseconds count as due. */
  leadMs?: number;
  /**
   * At most this many tenants' oldest untagged jobs read by one pass (fair-heads-select.sql),
   * the walk going round the tenants pass after pass; `limit` by default.
   */
  tenantsPerPass?: number;
  /** As ClaimArgs.at: the instant that decides what is due, instead of the database clock (tests). */
  at?: Date | null;
}

export interface TagResult {
  tagged: number;
  /** Another claimer held the shard's lane clock: it is tagging the lane, this pass did nothing. */
  busy: boolean;
}

interface ClockRow extends RowDataPacket {
  vt: string | number;
  max_tag: string | number;
  heads_after: Buffer | null;
}
interface UntaggedRow extends RowDataPacket {
  id: Buffer;
  tenant_id: Buffer;
}
interface HeadRow extends RowDataPacket {
  tenant_id: Buffer;
  id: Buffer;
}
interface TenantClockRow extends RowDataPacket {
  tenant_id: Buffer;
  vt: string | number;
}

/** Weights read each pass: what tagDueJobs uses without a cache of its caller's. */
const UNCACHED = new ClaimTenants({ ttlMs: 0 });

/**
 * Tags one shard's due, untagged jobs of a lane (new ones, retries, redrives, released and
 * deferred ones) with their start tags (tagRunnableJobs in @dsched/domain), in one short
 * transaction on that shard: the shard's lane clock row locked (skipped if another claimer holds
 * it; made by the shard's first pass), one read of the due untagged ids in due order; when that
 * read is full (more are waiting than one pass tags), one more of the oldest due untagged job of
 * each of the next tenants (fair-heads-select.sql), tagged first, so a tenant's new job is not
 * left behind another's untagged flood (D27); then one read of the head of the shard's tagged
 * queue, one of their tenants' clocks on the shard, and one statement each for the tags, the
 * tenants' finish tags and the clock. The tenants walked and their weights are read apart, from
 * `tenants` (the global keyspace on Vitess) and the tenant cache.
 */
export async function tagDueJobs(pool: Pool, args: TagArgs): Promise<TagResult> {
  const leadUs = Math.max(0, Math.round((args.leadMs ?? 0) * 1000));
  const group = args.partitions ?? ALL_PARTITIONS;
  if (group.length === 0) throw new Error('tagDueJobs: an empty group of partitions');
  const anchor = Math.min(...group);
  const cache = args.tenants ?? UNCACHED;
  return withTransaction(pool, async (conn) => {
    let [clocks] = await conn.query<ClockRow[]>(CLOCK_LOCK, [anchor, args.lane]);
    if (clocks.length === 0) {
      const [found] = await conn.query<RowDataPacket[]>(CLOCK_EXISTS, [anchor, args.lane]);
      if (found.length > 0) return { tagged: 0, busy: true };
      await conn.query(CLOCK_INSERT, [anchor, args.lane]);
      [clocks] = await conn.query<ClockRow[]>(CLOCK_LOCK, [anchor, args.lane]);
    }
    const clock = clocks[0];
    if (!clock) return { tagged: 0, busy: true };
    const [inDueOrder] = await conn.query<UntaggedRow[]>(UNTAGGED_SELECT(args.at), [
      args.lane,
      leadUs,
      group,
      args.limit,
    ]);
    if (inDueOrder.length === 0) return { tagged: 0, busy: false };
    // Fewer than the limit: that read has every untagged due job, there is no one left behind.
    let headsAfter: Buffer | null = null;
    let due: { id: Buffer; tenant_id: Buffer }[] = inDueOrder;
    if (inDueOrder.length === args.limit) {
      const perPass = args.tenantsPerPass ?? args.limit;
      const [walked] = await pool.query<RowDataPacket[]>(TENANTS_WALK, [
        clock.heads_after ?? Buffer.alloc(0),
        perPass,
      ]);
      const walk = walked.map((t) => t.id as Buffer);
      headsAfter = walk.length === perPass ? lastTenant(walk) : null;
      const headJobs = walk.length > 0 ? await headsOf(conn, args, walk, group, leadUs) : [];
      const seen = new Set(headJobs.map((h) => h.id.toString('hex')));
      due = [...headJobs, ...inDueOrder.filter((r) => !seen.has(r.id.toString('hex')))];
    }
    const [heads] = await conn.query<RowDataPacket[]>(HEAD, [
      ...[0, 1, 2, 3].flatMap(() => [args.lane, group]),
    ]);
    const headTags = heads
      .map((r) => r.tag)
      .filter((t) => t !== null && t !== undefined)
      .map(Number);
    const tenantBins = new Map(due.map((r) => [r.tenant_id.toString('hex'), r.tenant_id]));
    const [clockRows] = await conn.query<TenantClockRow[]>(TENANTS_READ, [
      anchor,
      args.lane,
      [...tenantBins.values()],
    ]);
    const vts = new Map(clockRows.map((c) => [c.tenant_id.toString('hex'), Number(c.vt)]));
    const weights = await cache.get(pool, [...tenantBins.values()]);
    const tenants = new Map<string, FairTenant>();
    for (const [hex, weight] of weights) {
      // A tenant whose row is gone keeps the default weight (tagRunnableJobs), as before.
      if (weight.weight !== null) tenants.set(hex, { weight: weight.weight, vt: vts.get(hex) ?? 0 });
    }
    const jobs = due.map((r) => ({ id: r.id.toString('hex'), tenantId: r.tenant_id.toString('hex') }));
    const result = tagRunnableJobs(
      { vt: Number(clock.vt), maxTag: Number(clock.max_tag) },
      headTags.length > 0 ? Math.min(...headTags) : null,
      tenants,
      jobs,
    );
    const ids = due.map((r) => r.id);
    const update = withSearch(
      TAGS_UPDATE,
      'id',
      due.map((r, i) => [r.id, result.tags.get(jobs[i]!.id)!] as const),
      [ids, group],
    );
    await conn.query(update.sql, update.params);
    await conn.query(TENANT_CLOCKS_UPSERT, [
      [...result.tenantVts].map(([tenant, vt]) => [anchor, tenantBins.get(tenant)!, args.lane, vt]),
    ]);
    await conn.query(CLOCK_UPDATE, [result.clock.vt, result.clock.maxTag, headsAfter, anchor, args.lane]);
    return { tagged: due.length, busy: false };
  });
}

/** The oldest due untagged job of each tenant walked: one statement, a keyed dive per tenant. */
async function headsOf(
  conn: { query: Pool['query'] },
  args: TagArgs,
  walk: readonly Buffer[],
  group: readonly number[],
  leadUs: number,
): Promise<HeadRow[]> {
  // The header comment once, before the first dive.
  const first = HEADS_SELECT(args.at);
  const body = first
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n');
  const sql = walk.map((_, i) => (i === 0 ? first : body)).join('\nUNION ALL\n');
  const [rows] = await conn.query<HeadRow[]>(
    sql,
    walk.flatMap((tenant) => [args.lane, tenant, group, leadUs]),
  );
  return rows;
}

/** The largest tenant id of a walk: where the next one starts. */
function lastTenant(walk: readonly Buffer[]): Buffer {
  return walk.reduce((max, t) => (Buffer.compare(t, max) > 0 ? t : max), walk[0]!);
}
