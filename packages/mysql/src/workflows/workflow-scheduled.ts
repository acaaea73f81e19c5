import {
  allPartitions,
  createWorkflowSchema,
  DEFAULT_PARTITIONS,
  normaliseTags,
  planWorkflow,
  type Tags,
} from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { readJson } from '../json.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { binToTrace } from '../trace-context.ts';
import { withTransaction } from '../transaction.ts';
import { storeWorkflow } from './workflow-submit.ts';

// Scheduled workflows (docs/workflows.md): a workflow task's occurrences are ordinary jobs, made by
// the scheduler with the task's DST, misfire and overlap policies, in lane 'workflow', which no
// executor claims. Here each due one starts its run: in one transaction, the run is stored with the
// job's id as its own (so an occurrence starts one run whatever crashes: a repeat meets the
// primary key, and the job leaves `pending` in the same commit) and the job stays running until
// the run ends (workflow-runs.ts endRuns), which is what overlap `forbid` looks at.

const START_LOCK = loadSql(import.meta.url, './scheduled-start-lock.sql');
const START_TASK = loadSql(import.meta.url, './scheduled-start-task.sql');
const START_PARK = loadSql(import.meta.url, './scheduled-start-park.sql');
const START_REFUSE = loadSql(import.meta.url, './scheduled-start-refuse.sql');

/**
 * Starts the runs of up to `limit` due occurrence jobs of workflow tasks of the group `partitions`
 * (the sweep's: one shard on Vitess, docs/sharding.md), one transaction each (a run may be 100,000
 * nodes), each keyed by its job's partition, which its task and its run share. Returns how many
 * it started. Without `partitions`, every partition of the default count (tests).
 */
export async function startScheduledRuns(
  pool: Pool,
  limit: number,
  partitions: readonly number[] = allPartitions(DEFAULT_PARTITIONS),
): Promise<number> {
  let started = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await withTransaction(pool, async (conn) => {
      const [jobs] = await conn.query<RowDataPacket[]>(START_LOCK, [partitions, 1]);
      const job = jobs[0];
      if (!job) return 'none' as const;
      const partition = Number(job.partition);
      const [tasks] = await conn.query<RowDataPacket[]>(START_TASK, [partition, job.task_id]);
      const stored = tasks[0]?.workflow ?? null;
      if (stored === null) {
        await conn.query(START_REFUSE, ['the task has no workflow to start', partition, job.id, job.attempt]);
        return 'refused' as const;
      }
      const req = createWorkflowSchema.parse(readJson(stored));
      const now = await databaseNow(conn);
      const planned = planWorkflow(req, binToId(job.tenant_id), now.getTime(), partition);
      // The run continues its occurrence's trace: the job's nodes are spans of the task's occurrence.
      // It carries its occurrence job's tags (its task's when the job was made) and the body's own;
      // the body's win on a key both have (docs/tags.md).
      const tags = normaliseTags({ ...readJson<Tags | null>(job.tags ?? null), ...planned.tags });
      const plan = { ...planned, id: binToId(job.id), trace: binToTrace(job.trace_context), tags };
      await storeWorkflow(conn, plan);
      const [parked] = await conn.query<ResultSetHeader>(START_PARK, [partition, job.id, job.attempt]);
      if (parked.affectedRows !== 1) throw new Error(`occurrence job ${plan.id} changed under its lock`);
      return 'started' as const;
    });
    if (outcome === 'none') break;
    if (outcome === 'started') started++;
  }
  return started;
}
