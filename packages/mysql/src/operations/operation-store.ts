import type { Operation, OperationAction, OperationFilter } from '@dsched/domain';
import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { filterToJson, type OperationRow, rowToOperation } from './operation-rows.ts';
import { countMatches, firstCursor } from './operation-walks.ts';

// task-api's side of bulk operations: start one (or count what it would touch), read, list, cancel.
// The work itself is the reconciler's (operation-batches.ts).

const INSERT = loadSql(import.meta.url, './operation-insert.sql');
const SELECT = loadSql(import.meta.url, './operation-select.sql');
const PAGE = loadSql(import.meta.url, './operations-page.sql');
const CANCEL = loadSql(import.meta.url, './operation-cancel.sql');

/** Sorts above every real id: the first page of a newest-first list starts below it. */
const MAX_ID = Buffer.alloc(16, 0xff);

/**
 * Counts what the filter matches now and, unless it is a dry run, stores the operation with that
 * count as `matched`, running, for the reconciler to carry out. A dry run changes nothing.
 *
 * The count is read unlocked, so it runs before and outside the transaction: through vtgate a tag
 * walk's count is a join run row by row (docs/vitess.md), thousands of shard queries for thousands
 * of matches, and in a transaction vttablet's killer ends it at its timeout (30 s: a dry run of
 * 2,000 jobs answered 500 so at load 27-71, `bulk-operations`).
 */
export async function startOperation(
  pool: Pool,
  args: { id: string; tenantId: string; action: OperationAction; filter: OperationFilter; dryRun: boolean },
): Promise<{ matched: number; operation: Operation | null }> {
  const matched = await countMatches(pool, args.tenantId, args.action, args.filter);
  if (args.dryRun) return { matched, operation: null };
  return withTransaction(pool, async (conn) => {
    await conn.query(INSERT, [
      idToBin(args.id),
      idToBin(args.tenantId),
      args.action,
      filterToJson(args.filter),
      matched,
      firstCursor(args.filter).at,
    ]);
    const [rows] = await conn.query<OperationRow[]>(SELECT, [idToBin(args.id), idToBin(args.tenantId)]);
    return { matched, operation: rowToOperation(rows[0]!) };
  });
}

/** One of the tenant's operations; null when it has none of that id (another tenant's included). */
export async function getOperation(pool: Pool, tenantId: string, id: string): Promise<Operation | null> {
  const [rows] = await pool.query<OperationRow[]>(SELECT, [idToBin(id), idToBin(tenantId)]);
  return rows[0] ? rowToOperation(rows[0]) : null;
}

/** A page of the tenant's operations, newest first, strictly before `beforeId` (null: the first page). */
export async function listOperations(
  pool: Pool,
  tenantId: string,
  beforeId: string | null,
  limit: number,
): Promise<Operation[]> {
  const before = beforeId ? idToBin(beforeId) : MAX_ID;
  const [rows] = await pool.query<OperationRow[]>(PAGE, [idToBin(tenantId), before, limit]);
  return rows.map(rowToOperation);
}

/**
 * Asks a running operation to stop: its worker ends it `cancelled` before its next batch. Returns
 * the operation as it is now (null: not the tenant's), its `cancelRequested` set while it runs.
 */
export async function cancelOperation(pool: Pool, tenantId: string, id: string): Promise<Operation | null> {
  await pool.query<ResultSetHeader>(CANCEL, [idToBin(id), idToBin(tenantId)]);
  return getOperation(pool, tenantId, id);
}
