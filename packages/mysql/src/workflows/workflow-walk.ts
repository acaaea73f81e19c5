import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import type { JobEnd } from '../jobs/finish/index.ts';
import { loadSql, withCaseColumns, withCaseGroups } from '../sql.ts';
import { type RunKey, stepToken, stopRuns } from './workflow-runs.ts';

// The walk (docs/workflows.md): run inside the transaction that ended node jobs (a follow-up of the
// finish path, finish-follow-ups.ts, whatever path ended them; and the reconciler's sweep), it
// finishes their nodes and tells their children (one statement per step for the whole batch),
// making the children that may run into jobs. It returns the runs it touched: the run ends that
// follow (dispatch held nodes, finish runs with nothing left to run) are the caller's. Nothing is
// held in memory but the batch and one frontier.

const FINISH_NODES = loadSql(import.meta.url, './walk-finish-nodes.sql');
const FINISHED_CHECK = loadSql(import.meta.url, './walk-finished-check.sql');
const COUNT_SELECT = loadSql(import.meta.url, './walk-count-select.sql');
const COUNT = loadSql(import.meta.url, './walk-count.sql');
const DECIDE = loadSql(import.meta.url, './walk-decide.sql');
const NODE_JOBS_INSERT = `${loadSql(import.meta.url, './walk-node-jobs-insert.sql')}\n${loadSql(
  import.meta.url,
  './node-jobs-revive.sql',
)}`;
const NODE_JOB_TAGS = loadSql(import.meta.url, './walk-node-job-tags.sql');
const PENDING_SELECT = loadSql(import.meta.url, './walk-pending-select.sql');
const PENDING_CLEAR = loadSql(import.meta.url, './walk-pending-clear.sql');
const DEFER = loadSql(import.meta.url, './walk-defer.sql');
const SLICE_END = loadSql(import.meta.url, './walk-slice-end.sql');
const SLICE_MARK = loadSql(import.meta.url, './walk-slice-mark.sql');

/** A node job that reached a final state in the transaction at hand. */
export interface FinishedNodeJob {
  workflowId: string;
  nodeId: string;
  jobId: string;
  state: 'succeeded' | 'dead' | 'cancelled';
  attempt: number;
  /** The run's partition (its node job's row's): every walk statement is keyed by it (docs/sharding.md). */
  partition: number;
}

/** A finished node whose children are to be told, as the SQL gets it. */
export interface FrontierNode {
  workflowId: Buffer;
  nodeId: string;
  /** The run's partition, read with the node. */
  partition: number;
  state: string;
  /** Its children in all. */
  childCount: number;
  /** A wide parent told in slices: the last child told so far (null: none yet). */
  walkAfter: string | null;
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
  /**
   * Children told in this transaction, in all: parents past it wait on the walk queue for the next
   * walker, and a parent with more children than this is told in slices of it, one per transaction
   * (walk_after), so no transaction makes more than about this many jobs (D33).
   */
  maxEdges: number;
}

export const OUTCOME_WALK_BOUNDS: WalkBounds = { maxSteps: 4, stepLimit: 1000, maxEdges: 2000 };

/** The ends of node jobs that finished their node (a final state; not a retry or a give-back). */
export function finishedNodeJobs(ends: readonly JobEnd[]): FinishedNodeJob[] {
  const out: FinishedNodeJob[] = [];
  for (const end of ends) {
    if (!end.workflowNode || end.state === 'pending' || end.state === 'parked') continue;
    out.push({
      workflowId: end.workflowNode.workflowId,
      nodeId: end.workflowNode.nodeId,
      jobId: end.id,
      state: end.state,
      attempt: end.attempt,
      partition: end.workflowNode.partition,
    });
  }
  return out;
}

/**
 * Advances the runs of node jobs that just finished (the caller's transaction holds their job rows,
 * fenced by attempt). Returns the runs it touched (by hex id), whose ends are the caller's.
 */
export async function advanceWorkflows(
  conn: PoolConnection,
  finished: readonly FinishedNodeJob[],
  bounds: WalkBounds = OUTCOME_WALK_BOUNDS,
  budget: WalkBudget = fullBudget(bounds),
): Promise<Map<string, RunKey>> {
  const runs = new Map<string, RunKey>();
  if (finished.length === 0) return runs;
  const token = stepToken();
  const sorted = [...finished].sort((a, b) =>
    a.workflowId === b.workflowId ? (a.nodeId < b.nodeId ? -1 : 1) : a.workflowId < b.workflowId ? -1 : 1,
  );
  const partitions = partitionsOf(sorted);
  const nodes = sorted.map((f) => [idToBin(f.workflowId), f.nodeId]);
  const finish = withCaseColumns(
    FINISH_NODES,
    sorted.map((f) => [idToBin(f.jobId), f.state, f.attempt]),
    [token, partitions, nodes, sorted.map((f) => idToBin(f.jobId))],
  );
  const [res] = await conn.query<ResultSetHeader>(finish.sql, finish.params);
  let frontier: FrontierNode[] = [];
  if (res.affectedRows > 0) {
    // The nodes finished here (a node cancelled or reset meanwhile is not), with their child counts.
    const [rows] = await conn.query<RowDataPacket[]>(FINISHED_CHECK, [partitions, nodes, token]);
    frontier = rows.map(frontierNode);
  }
  for (const f of frontier) runs.set(f.workflowId.toString('hex'), runOf(f));
  // fail_fast: a dead node stops its run before its children are told (they are cancelled with it).
  const dead = frontier.filter((f) => f.state === 'dead').map(runOf);
  if (dead.length > 0) await stopRuns(conn, dead, 'failed', { onlyFailFast: true });
  const step = takeStep(frontier, budget);
  // What did not fit waits on the walk queue, as a walk left at its bound does.
  if (step.deferred.length > 0)
    await conn.query(DEFER, [
      partitionsOf(step.deferred),
      step.deferred.map((f) => [f.workflowId, f.nodeId]),
    ]);
  await tellStep(conn, step, budget);
  // The queue of the batch's partitions; the rest is other walkers' (docs/sharding.md).
  for (const run of (await continueWalk(conn, partitions, bounds, budget)).values())
    runs.set(run.id.toString('hex'), run);
  return runs;
}

/**
 * Takes up to `bounds.maxSteps` frontiers of finished nodes of `partitions` whose children were not
 * told yet (walk_pending) and tells them, within the transaction's edge budget. Bounded: at most maxSteps ×
 * stepLimit nodes and about maxEdges children per call, whatever the graph's depth and width.
 * Returns the runs it touched.
 */
export async function continueWalk(
  conn: PoolConnection,
  partitions: readonly number[],
  bounds: WalkBounds,
  budget: WalkBudget = fullBudget(bounds),
): Promise<Map<string, RunKey>> {
  const runs = new Map<string, RunKey>();
  if (partitions.length === 0) return runs;
  for (let i = 0; i < bounds.maxSteps; i++) {
    const [rows] = await conn.query<RowDataPacket[]>(PENDING_SELECT, [partitions, bounds.stepLimit]);
    if (rows.length === 0) break;
    const step = takeStep(rows.map(frontierNode), budget);
    // Nodes taken whole leave the queue; a slice moves its node's cursor (walk-slice-mark.sql); the
    // rest stay queued (locked by this transaction until it ends).
    if (step.whole.length > 0)
      await conn.query(PENDING_CLEAR, [
        partitionsOf(step.whole),
        step.whole.map((f) => [f.workflowId, f.nodeId]),
      ]);
    await tellStep(conn, step, budget);
    for (const f of [...step.whole, ...(step.slice ? [step.slice] : [])])
      runs.set(f.workflowId.toString('hex'), runOf(f));
    if (step.deferred.length > 0) break;
  }
  return runs;
}

/** Children a transaction may still tell; `full` is its whole budget. */
export interface WalkBudget {
  edges: number;
  full: number;
}

/** A transaction's budget, none of it spent: one per transaction, shared by every walk in it. */
export function fullBudget(bounds: WalkBounds): WalkBudget {
  return { edges: bounds.maxEdges, full: bounds.maxEdges };
}

export interface Step {
  /** Nodes whose children were all told. */
  whole: FrontierNode[];
  /** A wide parent of which one slice was told. */
  slice?: FrontierNode;
  /** Nodes not told (no room left in the budget). */
  deferred: FrontierNode[];
}

/**
 * One step's share of a frontier: the nodes that fit the budget are told whole (charged to it);
 * then, if the step took nothing else and half the budget is left, one wide parent (more children
 * than fit, or one told in slices already) is told a slice; the rest are deferred.
 */
export function takeStep(frontier: readonly FrontierNode[], budget: WalkBudget): Step {
  const step: Step = { whole: [], deferred: [] };
  for (const f of frontier) {
    if (step.slice === undefined && f.walkAfter === null && f.childCount <= budget.edges) {
      step.whole.push(f);
      budget.edges -= f.childCount;
    } else if (step.slice === undefined && step.whole.length === 0 && budget.edges * 2 >= budget.full) {
      step.slice = f;
    } else step.deferred.push(f);
  }
  return step;
}

async function tellStep(conn: PoolConnection, step: Step, budget: WalkBudget): Promise<void> {
  const whole = step.whole.map((node) => ({ node, afterId: '', uptoId: null }));
  if (whole.length > 0) await tell(conn, whole);
  if (step.slice) await tellSlice(conn, step.slice, budget);
}

/** One slice of a wide parent's children, up to the budget left; its cursor moves past it. */
async function tellSlice(conn: PoolConnection, node: FrontierNode, budget: WalkBudget): Promise<void> {
  const afterId = node.walkAfter ?? '';
  const limit = Math.max(1, budget.edges);
  const [end] = await conn.query<RowDataPacket[]>(SLICE_END, [
    node.partition,
    node.workflowId,
    node.nodeId,
    afterId,
    limit - 1,
  ]);
  const uptoId: string | null = end[0]?.child_id ?? null;
  await tell(conn, [{ node, afterId, uptoId }]);
  budget.edges -= limit;
  const [marked] = await conn.query<ResultSetHeader>(SLICE_MARK, [
    uptoId,
    uptoId,
    node.partition,
    node.workflowId,
    node.nodeId,
    node.walkAfter,
  ]);
  if (marked.affectedRows !== 1)
    throw new Error(`walk: the slice cursor of node ${node.nodeId} moved under its lock`);
}

/**
 * The parents' children in the given bounds count them off, are decided, and those that may run get
 * jobs. The parents are all whole (bounds '' and NULL) or one wide parent's slice (takeStep), so the
 * bounds are the step's; each statement reads the parents' own rows by key (walk-count-select.sql),
 * or the children they found (walk-count.sql, walk-decide.sql).
 */
async function tell(
  conn: PoolConnection,
  parents: { node: FrontierNode; afterId: string; uptoId: string | null }[],
): Promise<void> {
  const token = stepToken();
  const { afterId, uptoId } = parents[0]!;
  if (parents.some((p) => p.afterId !== afterId || p.uptoId !== uptoId))
    throw new Error('walk: a step tells whole parents or one slice, never both');
  const partitions = partitionsOf(parents.map((p) => p.node));
  const keys = parents.map(({ node: f }) => [f.workflowId, f.nodeId]);
  const bounded = [afterId, uptoId, uptoId, partitions, keys];
  // Leaves (most of a wide run's last level) have no children to count.
  const [children] = await conn.query<RowDataPacket[]>(COUNT_SELECT, bounded);
  if (children.length === 0) return;
  // Each child's counts by its job id; a zero is the CASE's ELSE, so it is not listed.
  const count = (column: string) =>
    children.map((c): [Buffer, number] => [c.job_id, Number(c[column])]).filter(([, n]) => n !== 0);
  const childKeys = children.map((c) => [c.workflow_id, c.node_id]);
  const counting = withCaseGroups(
    COUNT,
    'c.job_id',
    { n: count('n'), failed: count('failed'), skipped: count('skipped') },
    [token, partitions, childKeys],
  );
  const [counted] = await conn.query<ResultSetHeader>(counting.sql, counting.params);
  if (counted.affectedRows === 0) return;
  const [decided] = await conn.query<ResultSetHeader>(DECIDE, [partitions, childKeys, token]);
  if (decided.affectedRows === 0) return;
  const [made] = await conn.query<ResultSetHeader>(NODE_JOBS_INSERT, [...bounded, partitions, token]);
  if (made.affectedRows === 0) return;
  await conn.query(NODE_JOB_TAGS, [...bounded, token]);
}

/** The distinct partitions of some nodes' runs, for a statement's key. */
function partitionsOf(nodes: readonly { partition: number }[]): number[] {
  return [...new Set(nodes.map((n) => n.partition))].sort((a, b) => a - b);
}

/** A frontier node's run, for its ends (workflow-runs.ts). */
function runOf(f: FrontierNode): RunKey {
  return { id: f.workflowId, partition: f.partition };
}

function frontierNode(r: RowDataPacket): FrontierNode {
  return {
    workflowId: r.workflow_id as Buffer,
    nodeId: r.node_id,
    partition: Number(r.partition),
    state: r.state,
    childCount: Number(r.child_count),
    walkAfter: r.walk_after ?? null,
  };
}
