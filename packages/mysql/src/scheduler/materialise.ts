import type {
  DueBatchDecision,
  DueTask,
  MisfirePolicy,
  OverlapPolicy,
  PartitionScope,
  SkipReason,
  TraceBatchBirth,
} from '@dsched/domain';
import { newId } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { insertJobs, type NewJob } from '../jobs/index.ts';
import { partitionLeaseName } from '../leases/index.ts';
import { databaseNow } from '../pool.ts';
import { loadSql, withSearch } from '../sql.ts';
import { inclusiveRange, recordOccurrenceSkips, scheduleFromRow } from '../tasks/index.ts';
import { withTransaction } from '../transaction.ts';

const CHECK_PARTITION_LEASES = loadSql(import.meta.url, './check-partition-leases.sql');
const SELECT_DUE = loadSql(import.meta.url, './select-due-tasks.sql');
const SELECT_LIVE_RUNS = loadSql(import.meta.url, './select-live-runs.sql');
const ADVANCE_TASKS = loadSql(import.meta.url, './advance-tasks.sql');

export interface MaterialiseArgs {
  scope: PartitionScope;
  lookaheadMs: number;
  /** Due tasks per batch. */
  limit: number;
  /** What to write for the due tasks read (the scheduler's `dueBatchDecision`). */
  decide: DueBatchDecision;
  /**
   * The batch's births (docs/tracing.md): each new job's trace context, and the batch's one span,
   * ended once the batch committed; none: each job gets a new unsampled context (insertJobs).
   */
  births?: TraceBatchBirth;
  /**
   * The instant to decide with instead of the database clock: tests step time forward with it
   * rather than sleep. Never set in production (the scheduler passes none).
   */
  now?: Date;
}

export interface MaterialiseResult {
  /** The database clock this batch decided with. */
  now: Date;
  dueTasks: number;
  jobsInserted: number;
  /** scheduled_for of every job written (the lag metric). */
  scheduledFor: Date[];
  skipped: Partial<Record<SkipReason, number>>;
  /** Held partitions whose lease this replica no longer holds: nothing was written for them. */
  lostPartitions: number[];
  /** The batch was cut short by a cap, so more due work may remain. */
  full: boolean;
}

/** select-due-tasks.sql. */
interface DueTaskRow extends RowDataPacket {
  id: Buffer;
  schedule: unknown;
  misfire_policy: MisfirePolicy;
  overlap_policy: OverlapPolicy;
  next_fire_at: Date;
  jitter_s: number;
  tagged: number;
  partition: number;
}

/** select-live-runs.sql. */
interface LiveRunRow extends RowDataPacket {
  task_id: Buffer;
}

/** check-partition-leases.sql. */
interface LeaseCheckRow extends RowDataPacket {
  name: string;
  token: string | number;
  db_now: Date;
}

/** The batch's clock and the partitions it may write (leases checked, read outside the batch's transaction). */
async function clockAndPartitions(
  conn: Pool | PoolConnection,
  scope: PartitionScope,
  at: Date | null,
): Promise<{ now: Date; partitions: number[]; lost: number[] }> {
  if ('unleased' in scope) return { now: await databaseNow(conn, at), partitions: scope.unleased, lost: [] };
  const [rows] = await conn.query<LeaseCheckRow[]>(CHECK_PARTITION_LEASES, [
    scope.held.map((h) => partitionLeaseName(h.partition)),
    scope.holder,
  ]);
  const tokens = new Map(rows.map((r) => [String(r.name), String(r.token)]));
  const partitions: number[] = [];
  const lost: number[] = [];
  for (const h of scope.held) {
    if (tokens.get(partitionLeaseName(h.partition)) === h.token) partitions.push(h.partition);
    else lost.push(h.partition);
  }
  // Lease expiry is always the database's own NOW(3); only the batch's decision clock can be stood in for.
  const now = at ?? (rows.length > 0 ? rows[0]!.db_now : await databaseNow(conn));
  return { now, partitions, lost };
}

/**
 * One batch of the scheduler tick, in one short transaction: check the leases (a plain read on
 * another connection of the pool, just before: the transaction stays in the tasks' shard and
 * holds no lock the lease renewal needs, D62), read and lock a capped due set critical first, run
 * the caller's decision on it (the domain's planDueBatch), then one multi-row insert of jobs, one
 * of skipped ranges and one update advancing next_fire_at. Needs two connections of the pool.
 */
export async function materialiseDueBatch(pool: Pool, args: MaterialiseArgs): Promise<MaterialiseResult> {
  let birth: ReturnType<TraceBatchBirth> | undefined;
  const result = await withTransaction(pool, async (conn) => {
    birth = undefined; // a deadlock's retry starts over
    const { now, partitions, lost } = await clockAndPartitions(pool, args.scope, args.now ?? null);
    const result: MaterialiseResult = {
      now,
      dueTasks: 0,
      jobsInserted: 0,
      scheduledFor: [],
      skipped: {},
      lostPartitions: lost,
      full: false,
    };
    if (partitions.length === 0) return result;

    const dueBefore = new Date(now.getTime() + args.lookaheadMs);
    // One row past the cap says whether more is due without another transaction to find out.
    const [read] = await conn.query<DueTaskRow[]>(SELECT_DUE, [partitions, dueBefore, now, args.limit + 1]);
    const tasks = read.slice(0, args.limit);
    result.full = read.length > args.limit;
    result.dueTasks = tasks.length;
    if (tasks.length === 0) return result;

    const forbidding = tasks.filter((t) => t.overlap_policy === 'forbid').map((t) => t.id);
    const live = new Set<string>();
    if (forbidding.length > 0) {
      const [rows] = await conn.query<LiveRunRow[]>(SELECT_LIVE_RUNS, [forbidding, partitions]);
      for (const r of rows) live.add(r.task_id.toString('hex'));
    }

    const bins = new Map<string, Buffer>();
    const partitionOf = new Map<string, number>();
    const tagged = new Set<string>();
    const due: DueTask[] = tasks.map((t) => {
      const id = binToId(t.id);
      bins.set(id, t.id);
      partitionOf.set(id, Number(t.partition));
      if (Number(t.tagged) === 1) tagged.add(id);
      return {
        id,
        schedule: scheduleFromRow(t.schedule),
        nextFireAt: t.next_fire_at,
        misfirePolicy: t.misfire_policy,
        overlapPolicy: t.overlap_policy,
        jitterS: Number(t.jitter_s),
        previousRunLive: live.has(t.id.toString('hex')),
      };
    });
    const plan = args.decide(due, { now, dueBefore });
    if (plan.full) result.full = true; // the rest of the batch stays due (and unlocked at commit)

    // Each job's id carries its task's partition (the shard key, docs/sharding.md).
    const ids = plan.jobs.map((j) => newId(now.getTime(), partitionOf.get(j.taskId)!));
    birth = args.births?.(
      plan.jobs.map((j, i) => ({
        id: ids[i]!,
        taskId: j.taskId,
        occurrence: j.occurrence,
        kind: 'scheduled',
        scheduledFor: j.scheduledFor,
      })),
    );
    const jobs: NewJob[] = plan.jobs.map((j, i) => ({
      id: ids[i]!,
      taskId: bins.get(j.taskId)!,
      partition: partitionOf.get(j.taskId)!,
      occurrence: j.occurrence,
      kind: 'scheduled',
      scheduledFor: j.scheduledFor,
      runAt: j.runAt,
      trace: birth ? birth.contexts[i]! : null,
      tagged: tagged.has(j.taskId),
    }));
    for (const j of plan.jobs) result.scheduledFor.push(j.scheduledFor);
    const skips = plan.skips.map(({ taskId, range }) => {
      result.skipped[range.reason] = (result.skipped[range.reason] ?? 0) + 1;
      return { taskId, partition: partitionOf.get(taskId)!, ...inclusiveRange(range), reason: range.reason };
    });
    const advance = plan.advance.map(({ taskId, nextFireAt }) => [bins.get(taskId)!, nextFireAt] as const);

    result.jobsInserted = await insertJobs(conn, jobs, now);
    await recordOccurrenceSkips(conn, skips);
    if (advance.length > 0) {
      const update = withSearch(ADVANCE_TASKS, 'id', advance, [now, advance.map(([id]) => id), partitions]);
      await conn.query(update.sql, update.params);
    }
    return result;
  });
  birth?.end(result.jobsInserted);
  return result;
}
