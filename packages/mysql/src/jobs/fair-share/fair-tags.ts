import { type FairTenant, type Lane, tagRunnableJobs } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { clockedSql, loadSql, withRows } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';

const CLOCK_LOCK = loadSql(import.meta.url, './fair-clock-lock.sql');
const UNTAGGED_SELECT = clockedSql(loadSql(import.meta.url, './fair-untagged-select.sql'));
const HEADS_SELECT = clockedSql(loadSql(import.meta.url, './fair-heads-select.sql'));
const HEAD = loadSql(import.meta.url, './fair-head.sql');
const TENANTS_READ = loadSql(import.meta.url, './fair-tenants-read.sql');
const TAGS_UPDATE = loadSql(import.meta.url, './fair-tags-update.sql');
const TENANT_CLOCKS_UPSERT = loadSql(import.meta.url, './fair-tenant-clocks-upsert.sql');
const CLOCK_UPDATE = loadSql(import.meta.url, './fair-clock-update.sql');

export interface TagArgs {
  lane: Lane;
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
  /** Another claimer held the lane's clock: it is tagging the lane, this pass did nothing. */
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
  id: Buffer | null;
}
interface TenantRow extends RowDataPacket {
  tenant_id: Buffer;
  weight: string | number;
  vt: string | number | null;
}

/**
 * Tags the lane's due, untagged jobs (new ones, retries, redrives, released and deferred ones)
 * with their start tags (tagRunnableJobs in @dsched/domain), in one short transaction: the lane's
 * clock row locked (skipped if another claimer holds it), one read of the due untagged ids in due
 * order; when that read is full (more are waiting than one pass tags), one more of the oldest due
 * untagged job of each of the next tenants (fair-heads-select.sql), tagged first, so a tenant's
 * new job is not left behind another's untagged flood (D27); then one read of the head of the
 * tagged queue, one of their tenants, and one statement each for the tags, the tenants' finish
 * tags and the clock.
 */
export async function tagDueJobs(pool: Pool, args: TagArgs): Promise<TagResult> {
  const leadUs = Math.max(0, Math.round((args.leadMs ?? 0) * 1000));
  return withTransaction(pool, async (conn) => {
    const [clocks] = await conn.query<ClockRow[]>(CLOCK_LOCK, [args.lane]);
    const clock = clocks[0];
    if (!clock) return { tagged: 0, busy: true };
    const [inDueOrder] = await conn.query<UntaggedRow[]>(UNTAGGED_SELECT(args.at), [
      args.lane,
      leadUs,
      args.limit,
    ]);
    if (inDueOrder.length === 0) return { tagged: 0, busy: false };
    // Fewer than the limit: that read has every untagged due job, there is no one left behind.
    let headsAfter: Buffer | null = null;
    let due: { id: Buffer; tenant_id: Buffer }[] = inDueOrder;
    if (inDueOrder.length === args.limit) {
      const perPass = args.tenantsPerPass ?? args.limit;
      const [heads] = await conn.query<HeadRow[]>(HEADS_SELECT(args.at), [
        args.lane,
        clock.heads_after ?? Buffer.alloc(0),
        perPass,
        leadUs,
      ]);
      headsAfter = heads.length === perPass ? lastTenant(heads) : null;
      const headJobs = heads.flatMap((h) => (h.id ? [{ id: h.id, tenant_id: h.tenant_id }] : []));
      const seen = new Set(headJobs.map((h) => h.id.toString('hex')));
      due = [...headJobs, ...inDueOrder.filter((r) => !seen.has(r.id.toString('hex')))];
    }
    const [heads] = await conn.query<RowDataPacket[]>(HEAD, [args.lane, args.lane, args.lane, args.lane]);
    const headTags = heads
      .map((r) => r.tag)
      .filter((t) => t !== null && t !== undefined)
      .map(Number);
    const tenantBins = new Map(due.map((r) => [r.tenant_id.toString('hex'), r.tenant_id]));
    const [tenantRows] = await conn.query<TenantRow[]>(TENANTS_READ, [args.lane, [...tenantBins.values()]]);
    const tenants = new Map<string, FairTenant>(
      tenantRows.map((t) => [
        t.tenant_id.toString('hex'),
        { weight: Number(t.weight), vt: t.vt === null ? 0 : Number(t.vt) },
      ]),
    );
    const jobs = due.map((r) => ({ id: r.id.toString('hex'), tenantId: r.tenant_id.toString('hex') }));
    const result = tagRunnableJobs(
      { vt: Number(clock.vt), maxTag: Number(clock.max_tag) },
      headTags.length > 0 ? Math.min(...headTags) : null,
      tenants,
      jobs,
    );
    const update = withRows(
      TAGS_UPDATE,
      ['id', 'tag'],
      due.map((r, i) => [r.id, result.tags.get(jobs[i]!.id)!]),
    );
    await conn.query(update.sql, update.params);
    await conn.query(TENANT_CLOCKS_UPSERT, [
      [...result.tenantVts].map(([tenant, vt]) => [tenantBins.get(tenant)!, args.lane, vt]),
    ]);
    await conn.query(CLOCK_UPDATE, [result.clock.vt, result.clock.maxTag, headsAfter, args.lane]);
    return { tagged: due.length, busy: false };
  });
}

/** The largest tenant id of a walk: where the next one starts. */
function lastTenant(heads: readonly HeadRow[]): Buffer {
  return heads.reduce(
    (max, h) => (Buffer.compare(h.tenant_id, max) > 0 ? h.tenant_id : max),
    heads[0]!.tenant_id,
  );
}
