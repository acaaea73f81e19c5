import type { ArchivableRun, NodeRecord } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { listWorkflowNodes } from './workflow-reads.ts';

// The MySQL side of moving finished runs to history (docs/history.md "Workflows"): which runs are
// ready, their nodes and dependencies a page at a time (memory independent of run size), the mark
// that makes the run history, and the delete in batches behind it. Every write is conditional.

const SELECT_ARCHIVABLE = loadSql(import.meta.url, './archivable-workflows-select.sql');
const LIVE_NODE_JOBS = loadSql(import.meta.url, './archive-live-node-jobs.sql');
const EDGES_PAGE = loadSql(import.meta.url, './archive-edges-page.sql');
const MARK = loadSql(import.meta.url, './archive-mark.sql');
const DELETE_BATCHES = [
  loadSql(import.meta.url, './archive-delete-outputs.sql'),
  loadSql(import.meta.url, './archive-delete-edges.sql'),
  loadSql(import.meta.url, './archive-delete-nodes.sql'),
  loadSql(import.meta.url, './archive-delete-tags.sql'),
];
const DELETE_RUN = loadSql(import.meta.url, './archive-delete-run.sql');

/**
 * Finished runs of a group of partitions (one shard on Vitess, docs/sharding.md) ready for history,
 * oldest first (at most `limit` of each final state).
 */
export async function selectArchivableWorkflows(
  pool: Pool,
  args: { limit: number; deadRetentionSeconds: number; partitions: readonly number[] },
): Promise<ArchivableRun[]> {
  const { limit, deadRetentionSeconds: keep, partitions: group } = args;
  const [rows] = await pool.query<RowDataPacket[]>(SELECT_ARCHIVABLE, [
    group,
    limit,
    keep,
    group,
    limit,
    keep,
    group,
    limit,
  ]);
  return rows
    .sort((a, b) => a.finished_at.getTime() - b.finished_at.getTime())
    .slice(0, limit)
    .map((r) => ({
      id: binToId(r.id),
      partition: Number(r.partition),
      tenantId: binToId(r.tenant_id),
      state: r.state,
      updatedAt: r.updated_at,
      archived: r.archived_at !== null,
    }));
}

/**
 * A page of a run's nodes in node id order after `afterNodeId`, as the API shows them, and how
 * many of them still have their job in MySQL.
 */
export async function archiveNodePage(
  pool: Pool,
  run: { id: string; partition: number },
  page: { limit: number; afterNodeId?: string },
): Promise<{ nodes: NodeRecord[]; liveJobs: number }> {
  const nodes = await listWorkflowNodes(pool, run.id, page);
  if (nodes.length === 0) return { nodes, liveJobs: 0 };
  const [rows] = await pool.query<RowDataPacket[]>(LIVE_NODE_JOBS, [
    run.partition,
    idToBin(run.id),
    nodes[0]!.nodeId,
    nodes.at(-1)!.nodeId,
  ]);
  return { nodes, liveJobs: Number(rows[0]!.n) };
}

/** A page of the dependencies whose parent id is in [firstParent, lastParent], after a cursor. */
export async function archiveEdgePage(
  pool: Pool,
  run: { id: string; partition: number },
  q: { firstParent: string; lastParent: string; after: [string, string] | null; limit: number },
): Promise<[string, string][]> {
  const [afterParent, afterChild] = q.after ?? [q.firstParent, ''];
  const [rows] = await pool.query<RowDataPacket[]>(EDGES_PAGE, [
    run.partition,
    idToBin(run.id),
    q.firstParent,
    q.lastParent,
    afterParent,
    afterParent,
    afterChild,
    q.limit,
  ]);
  return rows.map((r) => [String(r.parent_id), String(r.child_id)]);
}

/** Marks a run archived if it is still as copied; false when it changed (a node retry reopened it). */
export async function markWorkflowArchived(pool: Pool, run: ArchivableRun): Promise<boolean> {
  const [res] = await pool.query<ResultSetHeader>(MARK, [
    run.partition,
    idToBin(run.id),
    run.state,
    run.updatedAt,
  ]);
  return res.affectedRows === 1;
}

/**
 * Deletes one batch of a marked run's rows: outputs, then dependencies, then nodes, then the run
 * row itself. Returns the rows deleted; 0 when nothing of the run is left (or it is not marked).
 */
export async function deleteArchivedWorkflowBatch(
  pool: Pool,
  run: { id: string; partition: number },
  limit: number,
): Promise<number> {
  const id = idToBin(run.id);
  const p = run.partition;
  for (const statement of DELETE_BATCHES) {
    const [res] = await pool.query<ResultSetHeader>(statement, [p, id, p, id, limit]);
    if (res.affectedRows > 0) return res.affectedRows;
  }
  const [res] = await pool.query<ResultSetHeader>(DELETE_RUN, [p, id, p, id]);
  return res.affectedRows;
}
