import { type Tags, type Task, tagStrings } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

const TAGS_DELETE = loadSql(import.meta.url, './task-tags-delete.sql');
const TAGS_INSERT = loadSql(import.meta.url, './task-tags-insert.sql');
const TAGS_PRUNE = loadSql(import.meta.url, './task-tags-prune.sql');
const LOCK_TAGS = loadSql(import.meta.url, './lock-task-tags.sql');

/**
 * A task's tag index rows (docs/tags.md) live in dsched_global and the task in its shard, so they
 * are never written in the task's transaction (docs/sharding.md): the rows of the tags a create or
 * change gives the task are written before its commit (a change's while it holds the task's row
 * lock), in a statement of their own; the rows of the tags it dropped are deleted after the commit
 * (pruneTaskTags). So the index never lacks a tag the task has. A row of a tag the task has not
 * (a change rolled back, a prune a crash skipped) is harmless: every read by tag keeps a task only
 * when its own tags hold the filter, and the task's next change that drops a tag prunes it.
 */
export async function addTaskTags(pool: Pool | PoolConnection, task: Task): Promise<void> {
  const tags = task.state === 'deleted' ? [] : tagStrings(task.tags);
  if (tags.length === 0) return;
  const tenant = idToBin(task.tenantId);
  const id = idToBin(task.id);
  await pool.query(TAGS_INSERT, [tags.map((tag) => [tenant, tag, id])]);
}

/**
 * After a change's commit: deletes the task's tag index rows whose tag it no longer has (all of
 * them once deleted or missing), reading its tags under a share lock of its row (keyed by its
 * partition) so that no change adding a tag runs between the read and the delete.
 */
export async function pruneTaskTags(pool: Pool, id: string, partition: number): Promise<void> {
  await withTransaction(pool, async (conn) => {
    const [rows] = await conn.query<RowDataPacket[]>(LOCK_TAGS, [partition, idToBin(id)]);
    const row = rows[0];
    const kept = !row || row.state === 'deleted' ? [] : tagStrings(readJson<Tags | null>(row.tags ?? null));
    // On dsched_global, by the pool: not in the shard's transaction, which holds the lock.
    if (kept.length === 0) await pool.query(TAGS_DELETE, [idToBin(id)]);
    else await pool.query(TAGS_PRUNE, [idToBin(id), kept]);
  });
}

/** Whether `after` has a tag `before` had not (a deleted task has none). */
export function tagsAdded(before: Task | null, after: Task): boolean {
  const had = new Set(before && before.state !== 'deleted' ? tagStrings(before.tags) : []);
  return (after.state === 'deleted' ? [] : tagStrings(after.tags)).some((t) => !had.has(t));
}

/** Whether `after` lacks a tag `before` had (a deleted task has none). */
export function tagsDropped(before: Task, after: Task): boolean {
  return tagsAdded(after, before);
}
