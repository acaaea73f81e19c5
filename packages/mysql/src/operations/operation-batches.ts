import { DschedError, type Operation, pauseTask, resumeTask } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { redriveLockedJobs } from '../jobs/control/index.ts';
import { finishJobs, type JobEnd } from '../jobs/finish/index.ts';
import { followUpsOfRow } from '../jobs/follow-ups/index.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { lockTask, rowToTask, writeTaskChange } from '../tasks/index.ts';
import { isRetryableTxError, withTransaction } from '../transaction.ts';
import { type OperationRow, rowToOperation } from './operation-rows.ts';
import { isTaskAction, type WalkCursor, type WalkedJobRow, walkStatement } from './operation-walks.ts';

// The reconciler's side of bulk operations (docs/bulk-operations.md). A worker takes the lease of one
// running operation and carries it out batch by batch. Each batch is one transaction: lock the
// operation (its owner and state are the fence, its cancel mark is read here), lock the next batch
// of what it walks after its cursor, change them (a statement or two per step; a job that ends goes
// through the finish path, so callbacks and the workflow walk follow: the reconciler loads the
// workflows layer, which registers the walk, and finishJobs refuses a node job's end without it),
// then save the new cursor and counts. A worker killed anywhere loses only its open batch, rolled back whole; whoever takes the
// lease next starts after the last committed batch, so nothing is changed twice or skipped.

const LEASE_TAKE = loadSql(import.meta.url, './operation-lease-take.sql');
const LEASED = loadSql(import.meta.url, './operation-leased.sql');
const LEASE_RELEASE = loadSql(import.meta.url, './operation-lease-release.sql');
const LOCK = loadSql(import.meta.url, './operation-lock.sql');
const PROGRESS = loadSql(import.meta.url, './operation-progress.sql');
const CANCEL_CLOSE_ATTEMPTS = loadSql(import.meta.url, './cancel-close-attempts.sql');
const CANCEL_NOW = loadSql(import.meta.url, './cancel-now.sql');
const CANCEL_REQUEST = loadSql(import.meta.url, './cancel-request.sql');
const RETRY_NOW = loadSql(import.meta.url, './retry-now.sql');
const SELECT = loadSql(import.meta.url, './operation-select.sql');

/** Takes the lease of one running operation whose lease is free or expired; null when none is. */
export async function takeOperation(pool: Pool, owner: string, ttlMs: number): Promise<Operation | null> {
  const [res] = await pool.query<ResultSetHeader>(LEASE_TAKE, [owner, ttlMs]);
  if (res.affectedRows === 0) return null;
  const [rows] = await pool.query<OperationRow[]>(LEASED, [owner]);
  return rows[0] ? rowToOperation(rows[0]) : null;
}

/** Gives a lease back between batches (a stopping worker), so another takes the operation at once. */
export async function releaseOperation(pool: Pool, id: string, owner: string): Promise<void> {
  await pool.query(LEASE_RELEASE, [idToBin(id), owner]);
}

/** What one batch did: `lost`, the lease was no longer this owner's; else the operation after it. */
export type BatchResult = { kind: 'lost' } | { kind: 'ran'; operation: Operation; changed: number };

/** Statement errors (bad data, a constraint): the operation cannot go on and ends `failed`. */
function failsTheOperation(err: unknown): boolean {
  if (err instanceof DschedError) return true;
  const e = err as { sqlState?: string };
  return typeof e.sqlState === 'string' && !isRetryableTxError(err) && !e.sqlState.startsWith('08');
}

/**
 * Runs the next batch of the operation this owner holds. A batch that cannot be applied (a
 * statement error) ends the operation `failed` with the error; a lost connection or a deadlock
 * rolls the batch back and is thrown, for the next pass to retry.
 */
export async function runOperationBatch(
  pool: Pool,
  id: string,
  owner: string,
  options: { batchSize: number; ttlMs: number },
): Promise<BatchResult> {
  const bin = idToBin(id);
  try {
    return await withTransaction(pool, (conn) => batch(conn, bin, owner, options));
  } catch (err) {
    if (!failsTheOperation(err)) throw err;
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    return withTransaction(pool, async (conn) => {
      const [rows] = await conn.query<OperationRow[]>(LOCK, [bin, owner]);
      const row = rows[0];
      if (!row) return { kind: 'lost' } as const;
      await saveProgress(conn, row, cursorOf(row), { done: 0, failed: 0 }, 'failed', error, owner, options);
      return { kind: 'ran', operation: await reread(conn, row), changed: 0 } as const;
    });
  }
}

async function batch(
  conn: PoolConnection,
  bin: Buffer,
  owner: string,
  options: { batchSize: number; ttlMs: number },
): Promise<BatchResult> {
  const [rows] = await conn.query<OperationRow[]>(LOCK, [bin, owner]);
  const row = rows[0];
  if (!row) return { kind: 'lost' };
  const op = rowToOperation(row);
  const cursor = cursorOf(row);
  if (op.cancelRequested) {
    await saveProgress(conn, row, cursor, { done: 0, failed: 0 }, 'cancelled', null, owner, options);
    return { kind: 'ran', operation: await reread(conn, row), changed: 0 };
  }
  const { sql, params } = walkStatement(op.tenantId, op.action, op.filter, cursor, options.batchSize);
  const [walked] = await conn.query<WalkedJobRow[]>(sql, params);
  const counts = isTaskAction(op.action)
    ? await changeTasks(conn, op, walked)
    : await changeJobs(conn, op, walked);
  const last = walked.at(-1);
  const next: WalkCursor = last ? { at: last.scheduled_for ?? cursor.at, id: last.id } : cursor;
  // A short batch was the last: nothing after the cursor matches.
  const end = walked.length < options.batchSize || isTaskActionOnOne(op) ? 'succeeded' : 'running';
  await saveProgress(conn, row, next, counts, end, null, owner, options);
  return { kind: 'ran', operation: await reread(conn, row), changed: counts.done };
}

function isTaskActionOnOne(op: Operation): boolean {
  return isTaskAction(op.action) && !op.filter.tags;
}

function cursorOf(row: OperationRow): WalkCursor {
  return { at: row.cursor_at ?? new Date(0), id: row.cursor_id ?? Buffer.alloc(16) };
}

async function saveProgress(
  conn: PoolConnection,
  row: OperationRow,
  cursor: WalkCursor,
  counts: { done: number; failed: number },
  state: 'running' | 'succeeded' | 'failed' | 'cancelled',
  error: string | null,
  owner: string,
  options: { ttlMs: number },
): Promise<void> {
  const [res] = await conn.query<ResultSetHeader>(PROGRESS, [
    cursor.at,
    cursor.id,
    counts.done,
    counts.failed,
    options.ttlMs,
    state,
    state,
    error,
    row.id,
    owner,
  ]);
  // The row is locked by this transaction under this owner: a miss is a bug, not a race.
  if (res.affectedRows !== 1) throw new Error('operations: the locked operation did not match its owner');
}

/** The operation as this batch left it (the row this transaction holds). */
async function reread(conn: PoolConnection, before: OperationRow): Promise<Operation> {
  const [rows] = await conn.query<OperationRow[]>(SELECT, [before.id, before.tenant_id]);
  return rowToOperation(rows[0] ?? before);
}

/** A cancel, redrive or retry of the locked jobs of one batch. */
async function changeJobs(
  conn: PoolConnection,
  op: Operation,
  rows: WalkedJobRow[],
): Promise<{ done: number; failed: number }> {
  if (rows.length === 0) return { done: 0, failed: 0 };
  const ids = rows.map((r) => r.id);
  let done = 0;
  if (op.action === 'cancel') {
    const called = rows.filter((r) => r.state === 'running' && r.claimed_by !== null);
    const now = rows.filter((r) => !(r.state === 'running' && r.claimed_by !== null));
    if (called.length > 0) {
      const [res] = await conn.query<ResultSetHeader>(CANCEL_REQUEST, [called.map((r) => r.id)]);
      done += res.affectedRows;
    }
    if (now.length > 0) {
      const parked = now.filter((r) => r.state === 'running').map((r) => r.id);
      if (parked.length > 0) await conn.query(CANCEL_CLOSE_ATTEMPTS, [parked]);
      const [res] = await conn.query<ResultSetHeader>(CANCEL_NOW, [now.map((r) => r.id)]);
      done += res.affectedRows;
      await finishJobs(conn, now.map(cancelledEnd));
    }
  } else if (op.action === 'redrive') {
    done = await redriveLockedJobs(
      conn,
      ids,
      rows.map((r) => Number(r.partition)),
    );
  } else {
    const [res] = await conn.query<ResultSetHeader>(RETRY_NOW, [ids]);
    done = res.affectedRows;
  }
  return { done, failed: rows.length - done };
}

function cancelledEnd(r: WalkedJobRow): JobEnd {
  return {
    id: binToId(r.id),
    attempt: Number(r.attempt),
    partition: Number(r.partition),
    state: 'cancelled',
    followUps: followUpsOfRow(r),
    workflowNode:
      r.workflow_id && r.node_id
        ? { workflowId: binToId(r.workflow_id), nodeId: String(r.node_id), partition: Number(r.partition) }
        : null,
    report: null,
  };
}

/** A pause or resume of one batch of tasks: each through the task's own change under its row lock. */
async function changeTasks(
  conn: PoolConnection,
  op: Operation,
  rows: RowDataPacket[],
): Promise<{ done: number; failed: number }> {
  const decide = op.action === 'pause' ? pauseTask : resumeTask;
  let done = 0;
  let failed = 0;
  const now = await databaseNow(conn);
  for (const r of rows) {
    const locked = await lockTask(conn, op.tenantId, binToId(r.id as Buffer), Number(r.partition));
    if (!locked) continue;
    const task = rowToTask(locked);
    try {
      const change = decide(task, now);
      if (!change) continue;
      await writeTaskChange(conn, task.version, change, Number(locked.partition));
      done++;
    } catch (err) {
      if (!(err instanceof DschedError)) throw err;
      failed++;
    }
  }
  return { done, failed };
}
