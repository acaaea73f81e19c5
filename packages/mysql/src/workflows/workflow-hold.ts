import type { OutcomeWrite } from '@dsched/domain';
import type { PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

// Pause holds the jobs a run already made (docs/workflows.md "Run operations"): their run_at moves
// to a hold time no claim reaches, and resume makes them due again. Three places keep that true:
// the pause itself, the outcome batch (a retry of a paused run's node), and the reconciler's sweep
// (any other path that makes a paused run's node job pending again).

const HOLD = loadSql(import.meta.url, './node-jobs-hold.sql');
const RELEASE = loadSql(import.meta.url, './node-jobs-release.sql');
const HOLD_RETRIED = loadSql(import.meta.url, './node-jobs-hold-retried.sql');

/** Holds the pending node jobs of those of `ids` that are paused; returns the jobs held. */
export async function holdPausedRunJobs(conn: PoolConnection, ids: Buffer[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [res] = await conn.query<ResultSetHeader>(HOLD, [ids]);
  return res.affectedRows;
}

/** Makes the jobs a run's pause held due now. */
export async function releaseHeldRunJobs(conn: PoolConnection, id: Buffer): Promise<number> {
  const [res] = await conn.query<ResultSetHeader>(RELEASE, [id]);
  return res.affectedRows;
}

/** In an outcome batch: holds the node jobs it sent back to pending whose run is paused. */
export async function holdRetriedNodeJobs(
  conn: PoolConnection,
  applied: readonly OutcomeWrite[],
): Promise<void> {
  const ids = applied
    .filter((w) => w.job.workflowId && (w.transition.to === 'retry' || w.transition.to === 'give_back'))
    .map((w) => idToBin(w.job.id));
  if (ids.length > 0) await conn.query(HOLD_RETRIED, [ids]);
}
