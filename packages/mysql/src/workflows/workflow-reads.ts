import {
  canonicalJson,
  MAP_LANE,
  type NodeRecord,
  type NodeState,
  nodeStateView,
  SLEEP_LANE,
  type StoredNodeState,
  WAIT_LANE,
  type WorkflowRecord,
} from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { withSnapshot } from '../transaction.ts';

const WORKFLOW_SELECT = loadSql(import.meta.url, './workflow-select.sql');
const NODE_COUNTS = loadSql(import.meta.url, './workflow-node-counts.sql');
const NODES_PAGE = loadSql(import.meta.url, './workflow-nodes-page.sql');
const EDGES = loadSql(import.meta.url, './workflow-edges.sql');
const NODE_PARENTS_PAGE = loadSql(import.meta.url, './workflow-node-parents-page.sql');
const NODE_EXISTS = loadSql(import.meta.url, './workflow-node-exists.sql');
const WORKFLOW_LIVE = loadSql(import.meta.url, './workflow-live.sql');

/** Whether a tenant's run is live in MySQL (false: missing, another tenant's, or moved to history). */
export async function isWorkflowLive(pool: Pool, tenantId: string, id: string): Promise<boolean> {
  const [rows] = await pool.query<RowDataPacket[]>(WORKFLOW_LIVE, [idToBin(id), idToBin(tenantId)]);
  return rows.length === 1;
}

/** A tenant's run with its node counts; null when missing or another tenant's. */
export async function getWorkflow(pool: Pool, tenantId: string, id: string): Promise<WorkflowRecord | null> {
  // One snapshot for the run and its counts: read apart, a cancel committing between them showed a
  // running run with cancelled nodes (and `dsched workflow watch` printed that as a change).
  const read = await withSnapshot(pool, async (conn) => {
    const [rows] = await conn.query<RowDataPacket[]>(WORKFLOW_SELECT, [idToBin(id), idToBin(tenantId)]);
    if (!rows[0]) return null;
    const [counts] = await conn.query<RowDataPacket[]>(NODE_COUNTS, [rows[0].id]);
    return { r: rows[0], counts };
  });
  if (!read) return null;
  const { r, counts } = read;
  const nodes: Record<NodeState, number> = {
    waiting: 0,
    pending: 0,
    running: 0,
    succeeded: 0,
    dead: 0,
    skipped: 0,
    upstream_failed: 0,
    cancelled: 0,
  };
  for (const c of counts) {
    nodes[nodeStateView(c.state as StoredNodeState, Number(c.running) === 1 ? 'running' : null)] += Number(
      c.n,
    );
  }
  return {
    id: binToId(r.id),
    name: r.name,
    state: r.state,
    paused: Number(r.paused) === 1,
    failurePolicy: r.failure_policy,
    maxParallel: r.max_parallel === null ? null : Number(r.max_parallel),
    nodeCount: Number(r.node_count),
    edgeCount: Number(r.edge_count),
    deadlineAt: r.deadline_at,
    metadata: readJson(r.metadata),
    tags: canonicalJson(readJson(r.tags ?? null)),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    nodes,
  };
}

/** Stored states behind each API state, and whether the live job must be running or not. */
const STATE_FILTER: Record<NodeState, { stored: StoredNodeState[]; job: string }> = {
  waiting: { stored: ['waiting'], job: '' },
  pending: { stored: ['ready', 'pending'], job: "AND (j.state IS NULL OR j.state <> 'running')" },
  running: { stored: ['pending'], job: "AND j.state = 'running'" },
  succeeded: { stored: ['succeeded'], job: '' },
  dead: { stored: ['dead'], job: '' },
  skipped: { stored: ['skipped'], job: '' },
  upstream_failed: { stored: ['upstream_failed'], job: '' },
  cancelled: { stored: ['cancelled'], job: '' },
};

/** A page of a run's nodes (the caller checked the run is the tenant's), in node id order. */
export async function listWorkflowNodes(
  pool: Pool,
  workflowId: string,
  page: { limit: number; afterNodeId?: string; state?: NodeState },
): Promise<NodeRecord[]> {
  const filter = page.state ? STATE_FILTER[page.state] : null;
  const sql = NODES_PAGE.replace('%STATES%', filter ? 'AND n.state IN (?)' : '').replace(
    '%JOB%',
    filter?.job ?? '',
  );
  const params = [
    idToBin(workflowId),
    page.afterNodeId ?? '',
    ...(filter ? [filter.stored] : []),
    page.limit,
  ];
  const [rows] = await pool.query<RowDataPacket[]>(sql, params);
  return rows.map(nodeRecord);
}

/** One node of a run (the caller checked the run is the tenant's); null when there is none. */
export async function getWorkflowNode(
  pool: Pool,
  workflowId: string,
  nodeId: string,
): Promise<NodeRecord | null> {
  // The page's statement, narrowed to the node's primary key.
  const sql = NODES_PAGE.replace('n.node_id > ?', 'n.node_id = ?')
    .replace('%STATES%', '')
    .replace('%JOB%', '');
  const [rows] = await pool.query<RowDataPacket[]>(sql, [idToBin(workflowId), nodeId, 1]);
  return rows[0] ? nodeRecord(rows[0]) : null;
}

/**
 * A page of one node's parents in parent id order, with their outputs (the caller checked the run
 * is the tenant's); null when the run has no such node.
 */
export async function listWorkflowNodeParents(
  pool: Pool,
  workflowId: string,
  nodeId: string,
  page: { limit: number; afterNodeId?: string },
): Promise<NodeRecord[] | null> {
  const wf = idToBin(workflowId);
  const [exists] = await pool.query<RowDataPacket[]>(NODE_EXISTS, [wf, nodeId]);
  if (exists.length === 0) return null;
  const [rows] = await pool.query<RowDataPacket[]>(NODE_PARENTS_PAGE, [
    wf,
    nodeId,
    page.afterNodeId ?? '',
    page.limit,
  ]);
  return rows.map(nodeRecord);
}

/** A sleep or wait node's kind, and while its job is pending, when it wakes or times out; a map's items. */
function waitingNodeFields(r: RowDataPacket): Pick<NodeRecord, 'kind' | 'wakeAt' | 'signal' | 'map'> {
  if (r.lane === undefined) return {};
  if (r.lane === MAP_LANE) {
    const count = r.map_count === null || r.map_count === undefined ? null : Number(r.map_count);
    return { kind: 'map', map: { over: r.map_over, count, made: Number(r.map_made ?? 0) } };
  }
  const kind = r.lane === SLEEP_LANE ? 'sleep' : r.lane === WAIT_LANE ? 'wait' : 'call';
  // A call node says no kind (the default). The archiver copies these fields into each node's
  // history document, so an archived run reads back as the live one did (workflow-kinds-history e2e).
  if (kind === 'call') return {};
  const live = ['waiting', 'ready', 'pending'].includes(r.state);
  return {
    kind,
    ...(r.state === 'pending' && r.job_scheduled_for ? { wakeAt: r.job_scheduled_for } : {}),
    ...(kind === 'wait' && live ? { signal: { jobId: binToId(r.job_id), hash: r.signal_hash ?? null } } : {}),
  };
}

/**
 * Whether the node's job was made. A node that ended with no attempt never had one (skipped,
 * upstream_failed, cancelled before it ran), except a sleep or wait node, which ends (succeeded or
 * dead) only through its job, without a call: by its wake, its signal or its timeout. Its job id
 * also proves a signal URL's token once the run is in history (task-api's workflow-signals.ts).
 */
function jobMade(r: RowDataPacket, mapRunning: boolean): boolean {
  if (mapRunning || r.state === 'pending') return true;
  if (r.state === 'waiting') return false;
  if (Number(r.attempt) > 0) return true;
  return (r.lane === SLEEP_LANE || r.lane === WAIT_LANE) && (r.state === 'succeeded' || r.state === 'dead');
}

function nodeRecord(r: RowDataPacket): NodeRecord {
  // A map node waits on its items once it has started making them: to the tenant it is running.
  const mapRunning = r.lane === MAP_LANE && r.state === 'waiting' && r.map_count !== null;
  return {
    nodeId: r.node_id,
    state: mapRunning ? 'running' : nodeStateView(r.state, r.job_state ?? null),
    attempt:
      r.job_attempt !== null && r.job_attempt !== undefined ? Number(r.job_attempt) : Number(r.attempt),
    jobId: jobMade(r, mapRunning) ? binToId(r.job_id) : null,
    trigger: r.trigger_rule,
    inputs: r.inputs,
    ...waitingNodeFields(r),
    finishedAt: r.finished_at,
    output: r.output === null || r.output === undefined ? undefined : readJson(r.output),
  };
}

/** Up to `limit` of a run's dependencies as [parent, child] (the caller checked the run is the tenant's). */
export async function listWorkflowEdges(
  pool: Pool,
  workflowId: string,
  limit: number,
): Promise<[string, string][]> {
  const [rows] = await pool.query<RowDataPacket[]>(EDGES, [idToBin(workflowId), limit]);
  return rows.map((r) => [r.parent_id as string, r.child_id as string]);
}
