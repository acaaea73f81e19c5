import { partitionInId } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { idToBin } from './ids.ts';

/** No row in the partition the write was keyed by. */
export const MISSED = Symbol('missed');

/**
 * Runs `write` (a transaction) keyed by the partition a row's id names; every statement of it
 * names that partition, so through vtgate the transaction stays on its shard (docs/sharding.md). A
 * row stored before the shard key (a job or a run) may sit in another partition than its id names
 * (D54): when the write misses it (returns MISSED), its row's partition is read by `partitionSql`
 * (`SELECT partition … WHERE id = ?`, unkeyed), outside any transaction, and the write runs again
 * keyed by that. A missing row costs that one unkeyed read.
 */
export async function keyedById<T>(
  pool: Pool,
  id: string,
  partitionSql: string,
  write: (partition: number) => Promise<T | typeof MISSED>,
): Promise<T | typeof MISSED> {
  const named = partitionInId(id);
  const first = await write(named);
  if (first !== MISSED) return first;
  const [rows] = await pool.query<RowDataPacket[]>(partitionSql, [idToBin(id)]);
  const partition = rows[0] ? Number(rows[0].partition) : named;
  return partition === named ? MISSED : write(partition);
}
