import { type Lane, type Priority, priorityFromRank, type RetryPolicy, type Target } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, maybeBinToId } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

const CLAIM_SELECT = loadSql(import.meta.url, './claim-select.sql');
const CLAIM_UPDATE = loadSql(import.meta.url, './claim-update.sql');
const CLAIM_ATTEMPTS = loadSql(import.meta.url, './claim-attempts.sql');
const CLAIM_READ = loadSql(import.meta.url, './claim-read.sql');

export interface ClaimedJob {
  id: string;
  tenantId: string;
  taskId: string | null;
  kind: string;
  scheduledFor: Date;
  priority: Priority;
  lane: Lane;
  attempt: number;
  maxAttempts: number;
  target: Target;
  retry: RetryPolicy;
  signingSecret: string;
}

/**
 * Claims up to `limit` due jobs of a lane for `owner`: one locking select that skips rows other
 * claimers hold, one update of the whole batch, one insert of their attempt rows; committed at
 * once so the locks are short.
 */
export async function claimDueJobs(
  pool: Pool,
  args: { lane: Lane; limit: number; owner: string; leaseSeconds: number },
): Promise<ClaimedJob[]> {
  if (args.limit <= 0) return [];
  return withTransaction(pool, async (conn) => {
    const [candidates] = await conn.query<RowDataPacket[]>(CLAIM_SELECT, [args.lane, args.limit]);
    if (candidates.length === 0) return [];
    const ids = candidates.map((r) => r.id as Buffer);
    await conn.query(CLAIM_UPDATE, [args.owner, args.leaseSeconds, ids]);
    await conn.query(CLAIM_ATTEMPTS, [ids]);
    const [rows] = await conn.query<RowDataPacket[]>(CLAIM_READ, [ids]);
    // Back into claim order (priority, then run_at): the caller starts calls in this order.
    const rank = new Map(ids.map((id, i) => [id.toString('hex'), i]));
    rows.sort((a, b) => rank.get(a.id.toString('hex'))! - rank.get(b.id.toString('hex'))!);
    return rows.map((r) => ({
      id: binToId(r.id),
      tenantId: binToId(r.tenant_id),
      taskId: maybeBinToId(r.task_id),
      kind: r.kind,
      scheduledFor: r.scheduled_for,
      priority: priorityFromRank(Number(r.priority)),
      lane: r.lane as Lane,
      attempt: Number(r.attempt),
      maxAttempts: Number(r.max_attempts),
      target: readJson<Target>(r.target),
      retry: readJson<RetryPolicy>(r.retry),
      signingSecret: r.signing_secret,
    }));
  });
}
