import { randomBytes } from 'node:crypto';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../sql.ts';
import { insertRunNodeJobs } from './workflow-submit.ts';

// Ending runs: finishing those with nothing left to run, and stopping those cancelled, failed
// fast or past their deadline. Each is a few statements for any number of runs.

const RUNS_DONE = loadSql(import.meta.url, './walk-runs-done.sql');
/**
 * The same read without its lock. Every outcome batch of node jobs asks which of its runs are done
 * or capped; a locking read there would take every run's row each time, and two transactions that
 * both read a run's row under a share lock and then asked to lock it would deadlock. So they
 * look first, and lock (and re-check) only the few runs that are done or capped.
 */
const peek = (sql: string) => sql.replace(/\s+FOR UPDATE\s*$/, '');
const RUNS_DONE_PEEK = peek(RUNS_DONE);
const RUNS_LOCK = loadSql(import.meta.url, './runs-lock.sql');
const FINISH = loadSql(import.meta.url, './workflow-finish.sql');
const QUOTA_MARK = loadSql(import.meta.url, './run-quota-mark.sql');
const SCHEDULED_RUNS_SELECT = loadSql(import.meta.url, './scheduled-runs-select.sql');
const SCHEDULED_RUNS_FINISH = loadSql(import.meta.url, './scheduled-runs-finish.sql');
const CANCEL_UNSTARTED_NODES = loadSql(import.meta.url, './runs-cancel-unstarted-nodes.sql');
const CANCEL_PENDING_JOBS = loadSql(import.meta.url, './runs-cancel-pending-jobs.sql');
const REQUEST_CANCEL_RUNNING = loadSql(import.meta.url, './runs-request-cancel-running.sql');
const CANCEL_NODES_OF_CANCELLED_JOBS = loadSql(import.meta.url, './runs-cancel-nodes-of-cancelled-jobs.sql');
const DISPATCH_LOCK = loadSql(import.meta.url, './dispatch-lock.sql');
const DISPATCH_PEEK = peek(DISPATCH_LOCK);
const DISPATCH_RELEASE = loadSql(import.meta.url, './dispatch-release.sql');

/**
 * A run as its ends take it: its id and its partition, which its nodes, edges and node jobs share
 * (the shard key, docs/sharding.md), read from a row of the run by whoever names it. Every
 * statement of a run's end is keyed by it.
 */
export interface RunKey {
  id: Buffer;
  partition: number;
}

/** The runs of some rows that carry `id` and `partition`. */
export function runKeys(rows: readonly RowDataPacket[]): RunKey[] {
  return rows.map((r) => ({ id: r.id as Buffer, partition: Number(r.partition) }));
}

/** The distinct partitions of some runs, for a statement's key. */
export function partitionsOfRuns(runs: readonly { partition: number }[]): number[] {
  return [...new Set(runs.map((r) => r.partition))].sort((a, b) => a - b);
}

/** A token marking the rows one step changed (63 random bits: it only tells this step's rows from others'). */
export function stepToken(): string {
  return (randomBytes(8).readBigUInt64BE() >> 1n).toString();
}

/**
 * Ends the given runs (locked, running) as `state`, and marks their place in the quota owed back
 * (given back after the commit: run-quota.ts). A run a workflow task's occurrence started counts as
 * its task, not against the quota: its occurrence job ends with it.
 */
async function endRuns(conn: PoolConnection, rows: RowDataPacket[], state: string): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id as Buffer);
  const partitions = partitionsOfRuns(runKeys(rows));
  await conn.query(FINISH, [state, partitions, ids]);
  const [scheduled] = await conn.query<RowDataPacket[]>(SCHEDULED_RUNS_SELECT, [partitions, ids]);
  const ofTask = new Set(scheduled.map((r) => (r.id as Buffer).toString('hex')));
  if (ofTask.size > 0) {
    const jobState = state === 'succeeded' ? 'succeeded' : state === 'cancelled' ? 'cancelled' : 'dead';
    await conn.query(SCHEDULED_RUNS_FINISH, [
      jobState,
      jobState === 'succeeded' ? null : `workflow ${state}`,
      partitions,
      scheduled.map((r) => r.id),
    ]);
  }
  // Its place in the tenant's quota is given back after this transaction commits (run-quota.ts,
  // D61): here the run's row is only marked as owing it.
  const owing = rows.filter((r) => !ofTask.has((r.id as Buffer).toString('hex')));
  if (owing.length === 0) return;
  await conn.query(QUOTA_MARK, [partitionsOfRuns(runKeys(owing)), owing.map((r) => r.id as Buffer)]);
}

/**
 * Finishes, of the given runs, those still running with nothing left to run: `failed` when a node is
 * dead, upstream_failed or cancelled, `succeeded` otherwise. Returns how many it finished.
 */
export async function finishDoneRuns(conn: PoolConnection, runs: readonly RunKey[]): Promise<number> {
  if (runs.length === 0) return 0;
  const sorted = runs.map((r) => r.id).sort(Buffer.compare);
  const [seen] = await conn.query<RowDataPacket[]>(RUNS_DONE_PEEK, [partitionsOfRuns(runs), sorted]);
  if (seen.length === 0) return 0;
  const [rows] = await conn.query<RowDataPacket[]>(RUNS_DONE, [
    partitionsOfRuns(runKeys(seen)),
    seen.map((r) => r.id as Buffer),
  ]);
  await endRuns(
    conn,
    rows.filter((r) => Number(r.failed) === 1),
    'failed',
  );
  await endRuns(
    conn,
    rows.filter((r) => Number(r.failed) !== 1),
    'succeeded',
  );
  return rows.length;
}

/**
 * Ends running runs as `state` (cancelled by their tenant, failed fast, or failed at their deadline):
 * what has not started is cancelled, running calls are asked to abort, and nothing after them runs
 * (their children are cancelled when they finish). Returns the runs it ended.
 */
export async function stopRuns(
  conn: PoolConnection,
  runs: readonly RunKey[],
  state: 'cancelled' | 'failed',
  options: { onlyFailFast?: boolean; reason?: string } = {},
): Promise<Buffer[]> {
  if (runs.length === 0) return [];
  const sql = RUNS_LOCK.replace(
    '%FAIL_FAST%',
    options.onlyFailFast ? "AND failure_policy = 'fail_fast'" : '',
  );
  const [rows] = await conn.query<RowDataPacket[]>(sql, [partitionsOfRuns(runs), runs.map((r) => r.id)]);
  if (rows.length === 0) return [];
  await endRuns(conn, rows, state);
  const stopped = rows.map((r) => r.id as Buffer);
  const partitions = partitionsOfRuns(runKeys(rows));
  const reason =
    options.reason ?? (state === 'cancelled' ? 'workflow cancelled' : 'workflow failed (fail_fast)');
  await conn.query(CANCEL_UNSTARTED_NODES, [partitions, stopped]);
  await conn.query(CANCEL_PENDING_JOBS, [reason, partitions, stopped]);
  await conn.query(REQUEST_CANCEL_RUNNING, [partitions, stopped]);
  await conn.query(CANCEL_NODES_OF_CANCELLED_JOBS, [partitions, stopped]);
  return stopped;
}

/**
 * Gives held (`ready`) nodes of running, unpaused runs their jobs, up to each run's maxParallel
 * less the nodes holding a place. `onlyCapped`: the outcome path, where uncapped runs hold nothing
 * unless paused.
 */
export async function dispatchHeld(
  conn: PoolConnection,
  runs: readonly RunKey[],
  options: { onlyCapped: boolean },
): Promise<void> {
  if (runs.length === 0) return;
  const capped = options.onlyCapped ? 'AND w.max_parallel IS NOT NULL' : '';
  const [seen] = await conn.query<RowDataPacket[]>(DISPATCH_PEEK.replace('%CAPPED%', capped), [
    partitionsOfRuns(runs),
    runs.map((r) => r.id),
  ]);
  if (seen.length === 0) return;
  const [locked] = await conn.query<RowDataPacket[]>(DISPATCH_LOCK.replace('%CAPPED%', capped), [
    partitionsOfRuns(runKeys(seen)),
    seen.map((r) => r.id as Buffer),
  ]);
  for (const run of locked) {
    const free = run.max_parallel === null ? 2 ** 31 : Number(run.max_parallel) - Number(run.live);
    if (free <= 0) continue;
    const key = { id: run.id as Buffer, partition: Number(run.partition) };
    const [released] = await conn.query<ResultSetHeader>(DISPATCH_RELEASE, [key.partition, key.id, free]);
    if (released.affectedRows > 0) await insertRunNodeJobs(conn, key);
  }
}
