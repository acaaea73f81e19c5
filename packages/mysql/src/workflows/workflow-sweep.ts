import { allPartitions, DEFAULT_PARTITIONS } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { releaseRunQuotas } from './run-quota.ts';
import { holdPausedRunJobs } from './workflow-hold.ts';
import {
  dispatchHeld,
  finishDoneRuns,
  partitionsOfRuns,
  type RunKey,
  runKeys,
  stopRuns,
} from './workflow-runs.ts';
import { startScheduledRuns } from './workflow-scheduled.ts';
import { advanceWorkflows, continueWalk, fullBudget, type WalkBounds } from './workflow-walk.ts';

// The reconciler's guarantee that no run stays running forever (docs/workflows.md): each pass
// takes a page of running runs and, from their durable node states only, applies the outcomes of
// node jobs that no walk applied (every path that ends a job walks in its own transaction, so these
// are left by code from before the finish path, or by a bug), takes on walks left at their bound, and
// finishes the runs with nothing left to run; and fails runs past their deadline. Idempotent: every
// statement it runs is conditional, so running it twice, or beside an executor, changes nothing more.
// A pass serves one group of partitions (one shard on Vitess, docs/sharding.md): the reconciler
// sweeps each group of its shard map in turn, with a cursor of each, and every statement of the
// pass is keyed by the group or by its runs' partitions, so each transaction stays on one shard.

const SWEEP_RUNNING = loadSql(import.meta.url, './sweep-running.sql');
const SWEEP_PAST_DEADLINE = loadSql(import.meta.url, './sweep-past-deadline.sql');
const STRANDED = loadSql(import.meta.url, './sweep-stranded-nodes.sql');
const RUNS_COUNT = loadSql(import.meta.url, './workflow-runs-count.sql');
const WALK_QUEUE_COUNT = loadSql(import.meta.url, './walk-queue-count.sql');

/** Running runs, paused and not (the runs-by-state gauge). */
export async function countRunningWorkflows(pool: Pool): Promise<{ running: number; paused: number }> {
  const [rows] = await pool.query<RowDataPacket[]>(RUNS_COUNT);
  const counts = { running: 0, paused: 0 };
  for (const r of rows) counts[Number(r.paused) === 1 ? 'paused' : 'running'] += Number(r.n);
  return counts;
}

/** Finished nodes whose children are not all told yet (the walk queue's gauge). */
export async function countWalkQueue(pool: Pool): Promise<number> {
  const [rows] = await pool.query<RowDataPacket[]>(WALK_QUEUE_COUNT);
  return Number(rows[0]?.n ?? 0);
}

export const SWEEP_WALK_BOUNDS: WalkBounds = { maxSteps: 16, stepLimit: 1000, maxEdges: 10_000 };

export interface SweepResult {
  /** Where the next pass resumes (null: from the first running run). */
  nextAfter: string | null;
  /** Runs this pass finished (a completion the walk missed). */
  finished: number;
  /** Node outcomes applied that no walk had applied. */
  repaired: number;
  /** Node jobs of paused runs held that no pause or outcome had held. */
  held: number;
  /** Runs started by workflow tasks' occurrences (workflow-scheduled.ts). */
  started: number;
  /** Runs failed at their deadline. */
  pastDeadline: number;
  /** Whether a batch was full (run again at once). */
  full: boolean;
}

const ZERO_ID = Buffer.alloc(16);

/** The group a pass serves when its caller names none: every partition of the default count (tests). */
const EVERY = allPartitions(DEFAULT_PARTITIONS);

/** One pass over the group `partitions`: its running runs after `after` (that group's cursor). */
export async function sweepWorkflows(
  pool: Pool,
  after: string | null,
  limit: number,
  partitions: readonly number[] = EVERY,
): Promise<SweepResult> {
  const afterBin = after ? Buffer.from(after.replaceAll('-', ''), 'hex') : ZERO_ID;
  const started = await startScheduledRuns(pool, limit, partitions);
  const [runs] = await pool.query<RowDataPacket[]>(SWEEP_RUNNING, [partitions, afterBin, limit]);
  const ids = runs.map((r) => r.id as Buffer);
  let repaired = 0;
  let finished = 0;
  let walkFull = false;
  let held = 0;
  let touched: RunKey[] = [];
  await withTransaction(pool, async (conn) => {
    repaired = 0;
    held = await holdPausedRunJobs(conn, runKeys(runs));
    // One budget of children for the whole transaction: the repairs' walk and the queue's.
    const budget = fullBudget(SWEEP_WALK_BOUNDS);
    let advanced = new Map<string, RunKey>();
    // The page's partitions (docs/sharding.md): the walk queue is read for them too.
    const pagePartitions = partitionsOfRuns(runKeys(runs));
    if (ids.length > 0) {
      const [stranded] = await conn.query<RowDataPacket[]>(STRANDED, [pagePartitions, ids, limit]);
      advanced = await advanceWorkflows(
        conn,
        stranded.map((s) => ({
          workflowId: binToId(s.workflow_id),
          nodeId: s.node_id,
          jobId: binToId(s.job_id),
          state: s.state,
          attempt: Number(s.attempt),
          partition: Number(s.partition),
        })),
        SWEEP_WALK_BOUNDS,
        budget,
      );
      repaired = stranded.length;
    }
    // The walk queue of the page's runs' partitions (docs/sharding.md): page by page, every
    // partition with a running run.
    const walked = await continueWalk(conn, pagePartitions, SWEEP_WALK_BOUNDS, budget);
    walkFull = walked.size > 0;
    touched = [...runKeys(runs), ...advanced.values(), ...walked.values()];
    await dispatchHeld(conn, touched, { onlyCapped: true });
    finished = await finishDoneRuns(conn, touched);
  });
  // The quota places of the runs it ended, after the commit (run-quota.ts, D61).
  await releaseRunQuotas(pool, touched).catch(() => undefined);
  let late: RunKey[] = [];
  const pastDeadline = await withTransaction(pool, async (conn) => {
    const [rows] = await conn.query<RowDataPacket[]>(SWEEP_PAST_DEADLINE, [partitions, limit]);
    late = runKeys(rows);
    const stopped = await stopRuns(conn, late, 'failed', { reason: 'workflow deadline passed' });
    return stopped.length;
  });
  await releaseRunQuotas(pool, late).catch(() => undefined);
  const full = ids.length === limit;
  return {
    nextAfter: full ? binToId(ids[ids.length - 1]!) : null,
    finished,
    repaired,
    held,
    started,
    pastDeadline,
    full: full || walkFull || pastDeadline === limit || started === limit,
  };
}
