import type { Operation, OperationAction, OperationFilter, OperationState, Tags } from '@dsched/domain';
import type { RowDataPacket } from 'mysql2/promise';
import { binToId } from '../ids.ts';
import { readJson } from '../json.ts';

// An operation's row and its filter as stored (JSON, times as epoch milliseconds).

/** operation-select.sql and the others that read a whole row. */
export interface OperationRow extends RowDataPacket {
  id: Buffer;
  tenant_id: Buffer;
  action: OperationAction;
  filter: unknown;
  state: OperationState;
  cancel_requested: number;
  matched: number;
  done: number;
  failed: number;
  batches: number;
  cursor_at: Date | null;
  cursor_id: Buffer | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

interface StoredFilter {
  taskId?: string;
  tags?: Tags;
  state?: OperationFilter['state'];
  from?: number;
  to?: number;
  errorContains?: string;
}

export function filterToJson(f: OperationFilter): string {
  const stored: StoredFilter = {
    ...(f.taskId ? { taskId: f.taskId } : {}),
    ...(f.tags ? { tags: f.tags } : {}),
    ...(f.state ? { state: f.state } : {}),
    ...(f.from ? { from: f.from.getTime() } : {}),
    ...(f.to ? { to: f.to.getTime() } : {}),
    ...(f.errorContains ? { errorContains: f.errorContains } : {}),
  };
  return JSON.stringify(stored);
}

function filterFromJson(raw: unknown): OperationFilter {
  const s = readJson<StoredFilter>(raw);
  return {
    taskId: s.taskId ?? null,
    tags: s.tags ?? null,
    state: s.state ?? null,
    from: s.from === undefined ? null : new Date(s.from),
    to: s.to === undefined ? null : new Date(s.to),
    errorContains: s.errorContains ?? null,
  };
}

export function rowToOperation(r: OperationRow): Operation {
  return {
    id: binToId(r.id),
    tenantId: binToId(r.tenant_id),
    action: r.action,
    filter: filterFromJson(r.filter),
    state: r.state,
    cancelRequested: Number(r.cancel_requested) === 1,
    matched: Number(r.matched),
    done: Number(r.done),
    failed: Number(r.failed),
    batches: Number(r.batches),
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
  };
}
