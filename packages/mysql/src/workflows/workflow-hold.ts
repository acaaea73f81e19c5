import type { PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { type JobEnd, partitionsOfEnds } from '../jobs/finish/index.ts';
import { loadSql } from '../sql.ts';
import { partitionsOfRuns, type RunKey } from './workflow-runs.ts';

// Pause holds the jobs a run already made (docs/workflows.md "Run operations"): each is marked
// `held`, which takes it out of every claim's range while its run_at keeps its due time, and resume
// releases them (claimable again at that run_at). Three places keep that true:
// the pause itself, the finish path (a node job sent back to pending, by a retry or a give-back,
// whatever path ended its attempt), and the reconciler's sweep (a node job a node retry revives).

const HOLD = loadSql(import.meta.url, './node-jobs-hold.sql');
const RELEASE = loadSql(import.meta.url, './node-jobs-release.sql');
const HOLD_RETRIED = loadSql(import.meta.url, './node-jobs-hold-retried.sql');

/** Holds the pending node jobs of those of `runs` that are paused; returns the jobs held. */
export async function holdPausedRunJobs(conn: PoolConnection, runs: readonly RunKey[]): Promise<number> {
  if (runs.length === 0) return 0;
  const [res] = await conn.query<ResultSetHeader>(HOLD, [partitionsOfRuns(runs), runs.map((r) => r.id)]);
  return res.affectedRows;
}

/** Releases the jobs a run's pause held: claimable again at their run_at. */
export async function releaseHeldRunJobs(conn: PoolConnection, run: RunKey): Promise<number> {
  const [res] = await conn.query<ResultSetHeader>(RELEASE, [run.partition, run.id]);
  return res.affectedRows;
}

/** In the finish path: holds the node jobs sent back to pending (a retry, a give-back) whose run is paused. */
export async function holdRetriedNodeJobs(conn: PoolConnection, ends: readonly JobEnd[]): Promise<void> {
  const retried = ends.filter((e) => e.workflowNode && e.state === 'pending');
  if (retried.length > 0)
    await conn.query(HOLD_RETRIED, [partitionsOfEnds(retried), retried.map((e) => idToBin(e.id))]);
}
