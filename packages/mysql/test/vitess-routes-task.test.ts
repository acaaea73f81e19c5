import { deleteTask, newId, type PatchTaskRequest, patchTask, pauseTask } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { EVEN, itRoutesToOneShard, ODD, singleModePool } from '@dsched/testkit/vitess-routes';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { changeTask, insertTaskWithinQuota } from '../src/tasks/index.ts';
import { backfillTask, triggerTask } from '../src/tasks/task-runs.ts';
import { changeableTaskValues, trailingTaskValues } from '../src/tasks/task-store.ts';

// A task's change (task-changes.ts: edit, pause, resume, delete) and a run asked of it (task-runs.ts:
// trigger, backfill) are each one transaction on the task's
// shard: its partition read first, then the lock, the update, its unstarted jobs and skips, every
// statement keyed by it; its tag index rows (dsched_global) are written beside it, never in it
// (task-store.ts: the added before the commit under the row lock, the dropped pruned after under a
// share lock). Runs on the Vitess leg only (vitess-*.test.ts). Watched failing with lock-task's
// key made a no-op ((`partition` = ? OR 1)): its route reached ['-80', '80-'] (the single-mode
// changes below still passed: vtgate let that one scattered read open the transaction); and with
// the added tag rows written in the task's transaction again (addTaskTags on its connection): the
// single-mode edit failed with "multi-db transaction attempted" (dsched and dsched_global); and
// with job-by-occurrence's key a no-op: its route reached both shards (the single-mode repeated
// trigger still passed, as with lock-task: vtgate let the scattered read through).
const db = useTestDatabase(import.meta.url);

/** Sessions in single transaction mode, whatever vtgate's default. */
const single = singleModePool(db);

const TENANT = idToBin(newId());
const TASK = cronTask(newId());

describe("a task's change through vtgate", () => {
  itRoutesToOneShard(db, {
    'the task locked (lock-task)': {
      file: 'tasks/lock-task.sql',
      params: (p) => [p[0], idToBin(newId()), TENANT],
    },
    'the task written, fenced by its version (update-task)': {
      file: 'tasks/update-task.sql',
      params: (p) => [
        ...changeableTaskValues(TASK),
        TASK.version,
        TASK.updatedAt,
        ...trailingTaskValues(TASK),
        0,
        p[0],
        idToBin(newId()),
        1,
      ],
    },
    'its unstarted jobs locked (select-unstarted-jobs)': {
      file: 'tasks/select-unstarted-jobs.sql',
      params: (p) => [p[0], idToBin(newId()), ['scheduled']],
    },
    'its unstarted jobs superseded (supersede-jobs)': {
      file: 'tasks/supersede-jobs.sql',
      params: (p) => [2, 'task paused', 0, p[0], [idToBin(newId(Date.now(), p[0]))]],
    },
    'a trigger or backfill: the task share-locked (lock-task-shared)': {
      file: 'tasks/lock-task-shared.sql',
      params: (p) => [p[0], idToBin(newId()), TENANT],
    },
    'a trigger asked again: its occurrence’s job (job-by-occurrence)': {
      file: 'tasks/job-by-occurrence.sql',
      params: (p) => [p[0], idToBin(newId()), 'trigger:x'],
    },
    'after the commit, its tags share-locked for the prune (lock-task-tags)': {
      file: 'tasks/lock-task-tags.sql',
      params: (p) => [p[0], idToBin(newId())],
    },
  });

  async function tagRows(taskId: string): Promise<string[]> {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT tag FROM task_tags WHERE task_id = ? ORDER BY tag',
      [idToBin(taskId)],
    );
    return rows.map((r) => String(r.tag));
  }

  it('edits, pauses and deletes tasks on both shards in single transaction mode, their tag rows following', async () => {
    const tenant = await createTenantWithKey(single.pool);
    for (const partition of [EVEN[1]!, ODD[1]!]) {
      const task = cronTask(tenant.id, { tags: { team: 'a', env: 'prod' } });
      expect(await insertTaskWithinQuota(single.pool, task, partition)).toBe(true);
      expect(await tagRows(task.id)).toEqual(['env:prod', 'team:a']);
      const edit = { tags: { team: 'b', env: 'prod' } } as PatchTaskRequest;
      const edited = await changeTask(single.pool, tenant.id, task.id, (t, now) => patchTask(t, edit, now));
      expect(edited?.changed).toBe(true);
      expect(await tagRows(task.id)).toEqual(['env:prod', 'team:b']);
      expect((await changeTask(single.pool, tenant.id, task.id, pauseTask))?.task.state).toBe('paused');
      expect(await tagRows(task.id)).toEqual(['env:prod', 'team:b']);
      expect((await changeTask(single.pool, tenant.id, task.id, deleteTask))?.changed).toBe(true);
      expect(await tagRows(task.id)).toEqual([]);
      expect(await changeTask(single.pool, tenant.id, task.id, pauseTask)).toBeNull();
    }
  });

  it('triggers (twice with one key) and backfills tagged tasks on both shards in single transaction mode', async () => {
    const tenant = await createTenantWithKey(single.pool);
    for (const partition of [EVEN[1]!, ODD[1]!]) {
      const task = cronTask(tenant.id, { tags: { team: 'a' } });
      expect(await insertTaskWithinQuota(single.pool, task, partition)).toBe(true);
      const first = await triggerTask(single.pool, tenant.id, task.id, 'k');
      expect(first?.created).toBe(true);
      expect(await triggerTask(single.pool, tenant.id, task.id, 'k')).toEqual({
        jobId: first!.jobId,
        created: false,
      });
      const at = (now: Date) => [new Date(now.getTime() - 120_000), new Date(now.getTime() - 60_000)];
      expect(await backfillTask(single.pool, tenant.id, task.id, (_, now) => at(now))).toEqual({
        count: 2,
        created: 2,
      });
      expect(await triggerTask(single.pool, tenant.id, newId(), null)).toBeNull();
    }
  });
});
