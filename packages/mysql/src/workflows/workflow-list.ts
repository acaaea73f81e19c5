import {
  type Cursor,
  canonicalJson,
  type Tags,
  type WorkflowState,
  type WorkflowSummary,
} from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { rarestTag, TAG_COUNT_CAP } from '../tag-rows-capped.ts';

// The runs list (GET /v1/workflows): a tenant's live runs newest first by creation, keyset-paged by
// (created_at, id); task-api merges them with the archived ones from history.

const PAGE = loadSql(import.meta.url, './workflows-page.sql');
const TAGGED_PAGE = loadSql(import.meta.url, './workflows-tagged-page.sql');
const TAGS_COUNT = loadSql(import.meta.url, './workflow-tags-count.sql');

export interface WorkflowListQuery {
  tenantId: string;
  state?: WorkflowState | undefined;
  name?: string | undefined;
  tags?: Tags | undefined;
  from: Date;
  cursor: Cursor;
  /** Rows to read (the caller asks one more than its page). */
  limit: number;
}

export function rowToWorkflowSummary(r: RowDataPacket): WorkflowSummary {
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
  };
}

export async function listLiveWorkflows(pool: Pool, q: WorkflowListQuery): Promise<WorkflowSummary[]> {
  const c = q.cursor;
  const cursor = [c.at, c.at, c.at, idToBin(c.id)];
  const state = q.state ?? null;
  const name = q.name ?? null;
  const filters = [state, state, name, name, q.limit];
  const tenant = idToBin(q.tenantId);
  const tag = q.tags
    ? await rarestTag(pool, q.tags, TAGS_COUNT, (t) => [tenant, t, q.from, c.at, TAG_COUNT_CAP])
    : undefined;
  const [rows] = q.tags
    ? await pool.query<RowDataPacket[]>(TAGGED_PAGE, [
        tenant,
        tag,
        q.from,
        ...cursor,
        JSON.stringify(q.tags),
        ...filters,
      ])
    : await pool.query<RowDataPacket[]>(PAGE, [idToBin(q.tenantId), q.from, ...cursor, ...filters]);
  return rows.map(rowToWorkflowSummary);
}
