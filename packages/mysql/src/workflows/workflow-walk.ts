import type { OutcomeWrite } from '@dsched/domain';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql, withRows } from '../sql.ts';
import { dispatchHeld, finishDoneRuns, stepToken, stopRuns } from './workflow-runs.ts';

// The walk (docs/workflows.md): run inside the transaction that records node jobs' final outcomes,
// it finishes their nodes, tells their children (one statement per step for the whole batch),
// makes the children that may run into jobs and finishes runs with nothing left to run. Nothing is
// held in memory but the batch and one frontier.

const FINISH_NODES = loadSql(import.meta.url, './walk-finish-nodes.sql');
const FINISHED_CHECK = loadSql(import.meta.url, './walk-finished-check.sql');
const COUNT = loadSql(import.meta.url, './walk-count.sql');
const DECIDE = loadSql(import.meta.url, './walk-decide.sql');
const NODE_JOBS_INSERT = `${loadSql(import.meta.url, './walk-node-jobs-insert.sql')}\n${loadSql(
  import.meta.url,
  './node-jobs-revive.sql',
)}`;
const PENDING_SELECT = loadSql(import.meta.url, './walk-pending-select.sql');
const PENDING_CLEAR = loadSql(import.meta.url, './walk-pending-clear.sql');

/** A node job that reached a final state in the transaction at hand. */
export interface FinishedNodeJob {
  workflowId: string;
  nodeId: string;
  jobId: string;
  state: 'succeeded' | 'dead' | 'cancelled';
  attempt: number;
}

/** A finished node whose children are to be told, as the SQL gets it. */
interface FrontierNode {
  workflowId: Buffer;
  nodeId: string;
  state: string;
}

export interface WalkBounds {
  /**
   * Steps of transitive propagation (skipped / upstream_failed / cancelled children telling their
   * own children) taken in this transaction; what is left stays marked walk_pending for the next
   * walker (any outcome transaction, or the reconciler's sweep).
   */
  maxSteps: number;
  /** Frontier nodes one propagation step takes. */
  stepLimit: number;
}

export const OUTCOME_WALK_BOUNDS: WalkBounds = { maxSteps: 4, stepLimit: 1000 };

/** The writes of an outcome batch that finished a node's job (applied: their fence held). */
export function finishedNodeJobs(applied: readonly OutcomeWrite[]): FinishedNodeJob[] {
  const out: FinishedNodeJob[] = [];
  for (const { job, transition } of applied) {
    if (!job.workflowId || !job.nodeId) continue;
    const to = transition.to;
    if (to !== 'succeeded' && to !== 'dead' && to !== 'cancelled') continue;
    out.push({
      workflowId: job.workflowId,
      nodeId: job.nodeId,
      jobId: job.id,
      state: to,
      attempt: job.attempt,
    });
  }
  return out;
}

/**
 * Advances the runs of node jobs that just finished (the caller's transaction holds their job rows,
 * fenced by attempt).
 */
export async function advanceWorkflows(
  conn: PoolConnection,
  finished: readonly FinishedNodeJob[],
  bounds: WalkBounds = OUTCOME_WALK_BOUNDS,
): Promise<void> {
  if (finished.length === 0) return;
  const token = stepToken();
  const sorted = [...finished].sort((a, b) =>
    a.workflowId === b.workflowId ? (a.nodeId < b.nodeId ? -1 : 1) : a.workflowId < b.workflowId ? -1 : 1,
  );
  const finish = withRows(
    FINISH_NODES,
    ['workflow_id', 'node_id', 'job_id', 'state', 'attempt'],
    sorted.map((f) => [idToBin(f.workflowId), f.nodeId, idToBin(f.jobId), f.state, f.attempt]),
  );
  const [res] = await conn.query<ResultSetHeader>(finish.sql, [...finish.params, token]);
  let frontier: FrontierNode[];
  if (res.affectedRows === sorted.length) {
    frontier = sorted.map((f) => ({ workflowId: idToBin(f.workflowId), nodeId: f.nodeId, state: f.state }));
  } else if (res.affectedRows === 0) {
    frontier = [];
  } else {
    const [rows] = await conn.query<RowDataPacket[]>(FINISHED_CHECK, [
      sorted.map((f) => [idToBin(f.workflowId), f.nodeId]),
      token,
    ]);
    frontier = rows.map((r) => ({ workflowId: r.workflow_id, nodeId: r.node_id, state: r.state }));
  }
  const runs = new Map<string, Buffer>();
  for (const f of frontier) runs.set(f.workflowId.toString('hex'), f.workflowId);
  // fail_fast: a dead node stops its run before its children are told (they are cancelled with it).
  const dead = frontier.filter((f) => f.state === 'dead').map((f) => f.workflowId);
  if (dead.length > 0) await stopRuns(conn, dead, 'failed', { onlyFailFast: true });
  await tellChildren(conn, frontier);
  for (const run of (await continueWalk(conn, bounds)).values()) runs.set(run.toString('hex'), run);
  if (runs.size === 0) return;
  // Runs with a maxParallel hold their ready nodes back; the places these outcomes freed go now.
  await dispatchHeld(conn, [...runs.values()], { onlyCapped: true });
  await finishDoneRuns(conn, [...runs.values()]);
}

/**
 * Takes up to `bounds.maxSteps` frontiers of finished nodes whose children were not told yet
 * (walk_pending) and tells them. Bounded: at most maxSteps × stepLimit nodes per call, whatever the
 * graph's depth. Returns the runs it touched.
 */
export async function continueWalk(conn: PoolConnection, bounds: WalkBounds): Promise<Map<string, Buffer>> {
  const runs = new Map<string, Buffer>();
  for (let step = 0; step < bounds.maxSteps; step++) {
    const [rows] = await conn.query<RowDataPacket[]>(PENDING_SELECT, [bounds.stepLimit]);
    if (rows.length === 0) break;
    await conn.query(PENDING_CLEAR, [rows.map((r) => [r.workflow_id, r.node_id])]);
    const frontier = rows.map((r) => ({
      workflowId: r.workflow_id as Buffer,
      nodeId: r.node_id,
      state: r.state,
    }));
    for (const f of frontier) runs.set(f.workflowId.toString('hex'), f.workflowId);
    await tellChildren(conn, frontier);
  }
  return runs;
}

/** One step: the frontier's children count it off, are decided, and those that may run get jobs. */
async function tellChildren(conn: PoolConnection, frontier: FrontierNode[]): Promise<void> {
  if (frontier.length === 0) return;
  const token = stepToken();
  const count = withRows(
    COUNT,
    ['workflow_id', 'node_id', 'failed', 'skipped'],
    frontier.map((f) => [
      f.workflowId,
      f.nodeId,
      f.state === 'succeeded' || f.state === 'skipped' ? 0 : 1,
      f.state === 'skipped' ? 1 : 0,
    ]),
  );
  const [counted] = await conn.query<ResultSetHeader>(count.sql, [...count.params, token]);
  // Leaves (most of a wide run's last level) have no children to decide.
  if (counted.affectedRows === 0) return;
  const parents = frontier.map((f) => [f.workflowId, f.nodeId]);
  const decide = withRows(DECIDE, ['workflow_id', 'node_id'], parents);
  const [decided] = await conn.query<ResultSetHeader>(decide.sql, [...decide.params, token]);
  if (decided.affectedRows === 0) return;
  const insert = withRows(NODE_JOBS_INSERT, ['workflow_id', 'node_id'], parents);
  await conn.query(insert.sql, [...insert.params, token]);
}
