import { PRIORITY_RANK, tagStrings, type WorkflowNodeSpec, type WorkflowPlan } from '@dsched/domain';
import type { Pool, PoolConnection } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql, withRows } from '../sql.ts';
import { withTaskQuota } from '../tasks/task-quota.ts';
import { traceToBin } from '../trace-context.ts';
import { withTransaction } from '../transaction.ts';
import { type EdgeRow, insertEdgeRows, insertNodeRows, type NodeRow, nodeRowBytes } from './node-rows.ts';

const WORKFLOW_INSERT = loadSql(import.meta.url, './workflow-insert.sql');
const NODE_JOBS_INSERT_RUN = `${loadSql(import.meta.url, './node-jobs-insert-run.sql')}\n${loadSql(
  import.meta.url,
  './node-jobs-revive.sql',
)}`;
const NODE_JOB_TAGS_RUN = loadSql(import.meta.url, './node-job-tags-run.sql');
const TAGS_INSERT = loadSql(import.meta.url, './workflow-tags-insert.sql');

/** The jobs of a run's pending nodes that have none, and their tag index rows. */
export async function insertRunNodeJobs(
  conn: PoolConnection,
  run: { id: Buffer; partition: number },
): Promise<void> {
  await conn.query(NODE_JOBS_INSERT_RUN, [run.partition, run.id]);
  await conn.query(NODE_JOB_TAGS_RUN, [run.partition, run.id]);
}

export type NewWorkflow = WorkflowPlan;

/**
 * Stores a run: its quota (a running workflow counts as one of the tenant's maxTasks) reserved on
 * the tenant's row first, in a statement of its own (task-quota.ts), then in one transaction on the
 * run's shard its row, its nodes and edges by multi-row statements in batches, and its root nodes'
 * jobs. False when the tenant's quota is used up (nothing stored). Nothing is stored unless all of
 * it is: a failure rolls the whole submission back and gives the place back.
 */
export async function insertWorkflow(pool: Pool, wf: NewWorkflow): Promise<boolean> {
  const done = await withTaskQuota(pool, wf.tenantId, 1, () =>
    withTransaction(pool, (conn) => storeWorkflow(conn, wf), {
      // A lock conflict on a large submission is unlikely (its rows are new); a retry would redo it all.
      retries: 1,
    }),
  );
  return done !== null;
}

/**
 * insertWorkflow's statements in the caller's transaction, without the quota (the caller's: a run
 * a workflow task's occurrence starts counts as its task).
 */
export async function storeWorkflow(conn: PoolConnection, wf: NewWorkflow): Promise<void> {
  const id = idToBin(wf.id);
  await conn.query(WORKFLOW_INSERT, [
    id,
    idToBin(wf.tenantId),
    wf.name,
    wf.failurePolicy,
    wf.maxParallel,
    wf.nodes.length,
    wf.edgeCount,
    wf.deadlineS,
    wf.metadata === null ? null : JSON.stringify(wf.metadata),
    traceToBin(wf.trace),
    wf.tags === null ? null : JSON.stringify(wf.tags),
    wf.partition,
  ]);
  const tags = wf.tags === null ? [] : tagStrings(wf.tags);
  if (tags.length > 0) {
    const rows = withRows(
      TAGS_INSERT,
      ['tag'],
      tags.map((t) => [t]),
    );
    await conn.query(rows.sql, [...rows.params, wf.partition, id]);
  }
  await insertNodes(conn, id, wf);
  await insertEdges(conn, id, wf.partition, wf.nodes);
  await insertRunNodeJobs(conn, { id, partition: wf.partition });
}

async function insertNodes(conn: PoolConnection, id: Buffer, wf: NewWorkflow): Promise<void> {
  // Each node's children: the walk tells a node with more than its budget in slices (walk_after).
  const children = new Map<string, number>();
  for (const n of wf.nodes) for (const p of n.parents) children.set(p, (children.get(p) ?? 0) + 1);
  // With maxParallel, only that many roots get a job now; the rest wait as `ready` (dispatch held).
  let roots = 0;
  const rows = wf.nodes.map((n, i): NodeRow => {
    let state = 'waiting';
    if (n.parents.length === 0) {
      roots++;
      state = wf.maxParallel !== null && roots > wf.maxParallel ? 'ready' : 'pending';
    }
    const target = JSON.stringify(n.target);
    const values = [
      id,
      n.id,
      idToBin(wf.jobIds[i]!),
      state,
      n.trigger,
      n.parents.length,
      n.parents.length,
      PRIORITY_RANK[n.priority],
      n.lane,
      n.retry.maxAttempts,
      target,
      JSON.stringify(n.retry),
      n.inputs,
      n.flowControl?.key ?? null,
      n.flowControl?.parallelism ?? null,
      n.flowControl?.ratePerSecond ?? null,
      children.get(n.id) ?? 0,
      n.wake && 'delayMs' in n.wake ? n.wake.delayMs : null,
      n.wake && 'at' in n.wake ? n.wake.at : null,
      n.signalHash ? Buffer.from(n.signalHash, 'hex') : null,
      n.map?.over ?? null,
      n.map?.maxItems ?? null,
      wf.partition,
    ];
    return { values, bytes: nodeRowBytes(target) };
  });
  await insertNodeRows(conn, rows);
}

async function insertEdges(
  conn: PoolConnection,
  id: Buffer,
  partition: number,
  nodes: WorkflowNodeSpec[],
): Promise<void> {
  await insertEdgeRows(
    conn,
    nodes.flatMap((n) => n.parents.map((parent): EdgeRow => [id, parent, n.id, partition])),
  );
}
