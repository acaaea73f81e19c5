import { PRIORITY_RANK, tagStrings, type WorkflowNodeSpec, type WorkflowPlan } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { traceToBin } from '../trace-context.ts';
import { withTransaction } from '../transaction.ts';

const RESERVE_QUOTA = loadSql(import.meta.url, '../tasks/reserve-task-quota.sql');
const WORKFLOW_INSERT = loadSql(import.meta.url, './workflow-insert.sql');
const NODES_INSERT = loadSql(import.meta.url, './nodes-insert.sql');
const EDGES_INSERT = loadSql(import.meta.url, './edges-insert.sql');
const NODE_JOBS_INSERT_RUN = `${loadSql(import.meta.url, './node-jobs-insert-run.sql')}\n${loadSql(
  import.meta.url,
  './node-jobs-revive.sql',
)}`;
const NODE_JOB_TAGS_RUN = loadSql(import.meta.url, './node-job-tags-run.sql');
const TAGS_INSERT = loadSql(import.meta.url, './workflow-tags-insert.sql');

/** The jobs of a run's pending nodes that have none, and their tag index rows. */
export async function insertRunNodeJobs(conn: PoolConnection, id: Buffer): Promise<void> {
  await conn.query(NODE_JOBS_INSERT_RUN, [id]);
  await conn.query(NODE_JOB_TAGS_RUN, [id]);
}

export type NewWorkflow = WorkflowPlan;

/**
 * The most bytes of JSON one batch statement carries: well under the smallest max_allowed_packet
 * of the servers we run on (16 MiB on MariaDB), and small enough that one statement of a 100,000-node
 * submission does not hold the server for long.
 */
const MAX_BATCH_BYTES = 4 * 1024 * 1024;
const MAX_EDGES_PER_BATCH = 20_000;

/**
 * Stores a run in one transaction: its quota (a running workflow counts as one of the tenant's
 * maxTasks), its row, its nodes and edges by multi-row statements in batches, and its root nodes'
 * jobs. False when the tenant's quota is used up (nothing stored). Nothing is stored unless all of
 * it is: a failure rolls the whole submission back.
 */
export async function insertWorkflow(pool: Pool, wf: NewWorkflow): Promise<boolean> {
  return withTransaction(pool, (conn) => storeWorkflow(conn, wf, { reserveQuota: true }), {
    // A lock conflict on a large submission is unlikely (its rows are new); a retry would redo it all.
    retries: 1,
  });
}

/**
 * insertWorkflow's statements in the caller's transaction. `reserveQuota: false` for a run a
 * workflow task's occurrence starts: it counts as its task.
 */
export async function storeWorkflow(
  conn: PoolConnection,
  wf: NewWorkflow,
  options: { reserveQuota: boolean },
): Promise<boolean> {
  if (options.reserveQuota) {
    const [quota] = await conn.query<ResultSetHeader>(RESERVE_QUOTA, [idToBin(wf.tenantId)]);
    if (quota.affectedRows !== 1) return false;
  }
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
  if (wf.tags !== null) await conn.query(TAGS_INSERT, [JSON.stringify(tagStrings(wf.tags)), id]);
  await insertNodes(conn, id, wf);
  await insertEdges(conn, id, wf.partition, wf.nodes);
  await insertRunNodeJobs(conn, id);
  return true;
}

async function insertNodes(conn: PoolConnection, id: Buffer, wf: NewWorkflow): Promise<void> {
  // Each node's children: the walk tells a node with more than its budget in slices (walk_after).
  const children = new Map<string, number>();
  for (const n of wf.nodes) for (const p of n.parents) children.set(p, (children.get(p) ?? 0) + 1);
  // With maxParallel, only that many roots get a job now; the rest wait as `ready` (dispatch held).
  let roots = 0;
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await conn.query(NODES_INSERT, [id, wf.partition, `[${batch.join(',')}]`]);
    batch = [];
    bytes = 0;
  };
  for (let i = 0; i < wf.nodes.length; i++) {
    const n = wf.nodes[i]!;
    let state = 'waiting';
    if (n.parents.length === 0) {
      roots++;
      state = wf.maxParallel !== null && roots > wf.maxParallel ? 'ready' : 'pending';
    }
    const row = JSON.stringify([
      n.id,
      wf.jobIds[i]!.replaceAll('-', ''),
      state,
      n.trigger,
      n.parents.length,
      PRIORITY_RANK[n.priority],
      n.lane,
      n.retry.maxAttempts,
      JSON.stringify(n.target),
      JSON.stringify(n.retry),
      n.inputs,
      n.flowControl?.key ?? null,
      n.flowControl?.parallelism ?? null,
      n.flowControl?.ratePerSecond ?? null,
      children.get(n.id) ?? 0,
      n.wake && 'delayMs' in n.wake ? n.wake.delayMs : null,
      n.wake && 'at' in n.wake ? sqlTime(n.wake.at) : null,
      n.signalHash ?? null,
      n.map?.over ?? null,
      n.map?.maxItems ?? null,
    ]);
    if (bytes + row.length > MAX_BATCH_BYTES) await flush();
    batch.push(row);
    bytes += row.length + 1;
  }
  await flush();
}

async function insertEdges(
  conn: PoolConnection,
  id: Buffer,
  partition: number,
  nodes: WorkflowNodeSpec[],
): Promise<void> {
  let batch: [string, string][] = [];
  for (const n of nodes) {
    for (const parent of n.parents) {
      batch.push([parent, n.id]);
      if (batch.length >= MAX_EDGES_PER_BATCH) {
        await conn.query(EDGES_INSERT, [id, partition, JSON.stringify(batch)]);
        batch = [];
      }
    }
  }
  if (batch.length > 0) await conn.query(EDGES_INSERT, [id, partition, JSON.stringify(batch)]);
}

/** An instant as JSON_TABLE reads a DATETIME(3) on both engines (the session is UTC). */
function sqlTime(at: Date): string {
  return at.toISOString().replace('T', ' ').replace('Z', '');
}
