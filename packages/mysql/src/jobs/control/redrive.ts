import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';

// Redrive from the dead-letter queue: a batch of dead jobs becomes pending again, one locking
// select and one update per batch.

const SELECT_IDS = loadSql(import.meta.url, './redrive-select.sql');
const SELECT_TASK = loadSql(import.meta.url, './redrive-select-task.sql');
const REDRIVE = loadSql(import.meta.url, './redrive-update.sql');

export const REDRIVE_BATCH = 500;

/** redrive-select.sql (with task_id), redrive-select-task.sql (id only). */
interface DeadJobRow extends RowDataPacket {
  id: Buffer;
  task_id?: Buffer | null;
}

async function redriveLocked(conn: PoolConnection, rows: DeadJobRow[]): Promise<string[]> {
  await redriveLockedJobs(
    conn,
    rows.map((r) => r.id),
  );
  return rows.map((r) => binToId(r.id));
}

/**
 * Redrives dead jobs the caller's transaction has locked (by their binary ids); returns how many
 * it redrove. A bulk operation's redrive batch runs this (packages/mysql/src/operations).
 */
export async function redriveLockedJobs(conn: PoolConnection, ids: Buffer[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [res] = await conn.query<ResultSetHeader>(REDRIVE, [ids]);
  return res.affectedRows;
}

/** Redrives the tenant's dead jobs among `ids` (others are left alone); returns those redriven. */
export async function redriveJobs(
  pool: Pool,
  tenantId: string,
  ids: string[],
  options: { taskId?: string | undefined } = {},
): Promise<string[]> {
  const out: string[] = [];
  const sorted = [...new Set(ids)].sort();
  for (let i = 0; i < sorted.length; i += REDRIVE_BATCH) {
    const batch = sorted.slice(i, i + REDRIVE_BATCH).map(idToBin);
    out.push(
      ...(await withTransaction(pool, async (conn) => {
        const [rows] = await conn.query<DeadJobRow[]>(SELECT_IDS, [batch, idToBin(tenantId)]);
        const task = options.taskId;
        const mine = task ? rows.filter((r) => r.task_id != null && binToId(r.task_id) === task) : rows;
        return redriveLocked(conn, mine);
      })),
    );
  }
  return out;
}

/** Redrives a task's dead jobs in batches, at most `cap` of them; returns those redriven. */
export async function redriveTask(
  pool: Pool,
  tenantId: string,
  taskId: string,
  cap: number,
): Promise<string[]> {
  const out: string[] = [];
  while (out.length < cap) {
    const limit = Math.min(REDRIVE_BATCH, cap - out.length);
    const done = await withTransaction(pool, async (conn) => {
      const [rows] = await conn.query<DeadJobRow[]>(SELECT_TASK, [idToBin(taskId), idToBin(tenantId), limit]);
      return redriveLocked(conn, rows);
    });
    out.push(...done);
    if (done.length < limit) break;
  }
  return out;
}
