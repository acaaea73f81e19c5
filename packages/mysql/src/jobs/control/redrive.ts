import { allPartitions, DEFAULT_PARTITIONS, type PartitionGroup, partitionInId } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';

// Redrive from the dead-letter queue: a batch of dead jobs becomes pending again, one locking
// select and one update per batch. Each batch is one group's of partitions (one shard on Vitess,
// docs/sharding.md), every statement of it keyed by the group: ids go to the group of the
// partition they name; a task's jobs are looked for group by group.

const SELECT_IDS = loadSql(import.meta.url, './redrive-select.sql');
const SELECT_TASK = loadSql(import.meta.url, './redrive-select-task.sql');
const PARTITIONS = loadSql(import.meta.url, './redrive-partitions.sql');
const REDRIVE = loadSql(import.meta.url, './redrive-update.sql');

export const REDRIVE_BATCH = 500;

/** The groups a redrive serves: a shard map's (`createShardMap`); one of every partition by default. */
export interface RedriveGroups {
  groups(): readonly PartitionGroup[];
}

const ONE_PRIMARY: RedriveGroups = (() => {
  const one = [{ shard: '-', partitions: allPartitions(DEFAULT_PARTITIONS) }];
  return { groups: () => one };
})();

/** redrive-select.sql (with task_id), redrive-select-task.sql (id only). */
interface DeadJobRow extends RowDataPacket {
  id: Buffer;
  task_id?: Buffer | null;
  partition: number;
}

async function redriveLocked(conn: PoolConnection, rows: DeadJobRow[]): Promise<string[]> {
  await redriveLockedJobs(
    conn,
    rows.map((r) => r.id),
    rows.map((r) => Number(r.partition)),
  );
  return rows.map((r) => binToId(r.id));
}

/**
 * Redrives dead jobs the caller's transaction has locked (by their binary ids, with their rows'
 * partitions, the statement's key); returns how many it redrove. A bulk operation's redrive batch
 * runs this (packages/mysql/src/operations).
 */
export async function redriveLockedJobs(
  conn: PoolConnection,
  ids: Buffer[],
  partitions: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const [res] = await conn.query<ResultSetHeader>(REDRIVE, [[...new Set(partitions)], ids]);
  return res.affectedRows;
}

/** The group holding each partition of `groups`. */
function byPartition(groups: readonly PartitionGroup[]): Map<number, PartitionGroup> {
  const m = new Map<number, PartitionGroup>();
  for (const g of groups) for (const p of g.partitions) m.set(p, g);
  return m;
}

/**
 * Redrives the tenant's dead jobs among `ids` (others are left alone); returns those redriven, in
 * id order. Ids go to the group of the partition each names, a transaction per batch of a group's;
 * the ids that redrove nothing are looked for once more, unkeyed and outside any transaction
 * (redrive-partitions.sql: jobs stored before the key, D54), and those found in another group are
 * redriven there.
 */
export async function redriveJobs(
  pool: Pool,
  tenantId: string,
  ids: string[],
  options: { taskId?: string | undefined; shards?: RedriveGroups } = {},
): Promise<string[]> {
  const groups = (options.shards ?? ONE_PRIMARY).groups();
  const holding = byPartition(groups);
  const sorted = [...new Set(ids.map((id) => binToId(idToBin(id))))].sort();
  const tenant = idToBin(tenantId);
  const task = options.taskId;
  const redrive = async (group: PartitionGroup, batch: string[]): Promise<string[]> =>
    withTransaction(pool, async (conn) => {
      const [rows] = await conn.query<DeadJobRow[]>(SELECT_IDS, [
        group.partitions,
        batch.map(idToBin),
        tenant,
      ]);
      const mine = task ? rows.filter((r) => r.task_id != null && binToId(r.task_id) === task) : rows;
      return redriveLocked(conn, mine);
    });
  const byGroup = new Map<PartitionGroup, string[]>();
  const tried = new Map<string, PartitionGroup>();
  for (const id of sorted) {
    const group = holding.get(partitionInId(id));
    if (!group) continue;
    byGroup.set(group, [...(byGroup.get(group) ?? []), id]);
    tried.set(id, group);
  }
  const out = new Set<string>();
  for (const [group, of] of byGroup) {
    for (let i = 0; i < of.length; i += REDRIVE_BATCH) {
      for (const id of await redrive(group, of.slice(i, i + REDRIVE_BATCH))) out.add(id);
    }
  }
  const missed = sorted.filter((id) => !out.has(id));
  for (let i = 0; i < missed.length; i += REDRIVE_BATCH) {
    const [rows] = await pool.query<DeadJobRow[]>(PARTITIONS, [
      missed.slice(i, i + REDRIVE_BATCH).map(idToBin),
      tenant,
    ]);
    const again = new Map<PartitionGroup, string[]>();
    for (const r of rows) {
      const id = binToId(r.id);
      const group = holding.get(Number(r.partition));
      if (!group || group === tried.get(id)) continue;
      again.set(group, [...(again.get(group) ?? []), id]);
    }
    for (const [group, of] of again) for (const id of await redrive(group, of)) out.add(id);
  }
  return [...out].sort();
}

/**
 * Redrives a task's dead jobs in batches, at most `cap` of them; returns those redriven. A task's
 * jobs share its partition: each group is asked in turn, and the task's own gives them.
 */
export async function redriveTask(
  pool: Pool,
  tenantId: string,
  taskId: string,
  cap: number,
  shards: RedriveGroups = ONE_PRIMARY,
): Promise<string[]> {
  const out: string[] = [];
  for (const group of shards.groups()) {
    while (out.length < cap) {
      const limit = Math.min(REDRIVE_BATCH, cap - out.length);
      const done = await withTransaction(pool, async (conn) => {
        const [rows] = await conn.query<DeadJobRow[]>(SELECT_TASK, [
          group.partitions,
          idToBin(taskId),
          idToBin(tenantId),
          limit,
        ]);
        return redriveLocked(conn, rows);
      });
      out.push(...done);
      if (done.length < limit) break;
    }
  }
  return out;
}
