import { deleteTask } from '@dsched/domain';
import { createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { changeTask, insertTaskWithinQuota } from '../src/tasks/index.ts';
import { withTaskQuota } from '../src/tasks/task-quota.ts';

// A tenant's task quota beside its tasks, never in their transaction (docs/sharding.md, "Non-hot
// paths"): a create reserves its place on the tenant's row first and gives it back when the task's
// transaction fails; a delete gives its place back after its commit.

const db = useTestDatabase(import.meta.url);

async function taskCount(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
    idToBin(tenantId),
  ]);
  return Number(rows[0]!.task_count);
}

describe("a tenant's task quota", () => {
  it('a create takes a place; one whose insert fails gives it back; a full quota refuses', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await db.pool.query('UPDATE tenants SET max_tasks = 2 WHERE id = ?', [idToBin(tenant.id)]);
    expect(await insertTaskWithinQuota(db.pool, cronTask(tenant.id, { key: 'a' }), 3)).toBe(true);
    expect(await taskCount(tenant.id)).toBe(1);
    // The same key again: the reservation committed, the insert refused, the place given back.
    await expect(insertTaskWithinQuota(db.pool, cronTask(tenant.id, { key: 'a' }), 5)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await taskCount(tenant.id)).toBe(1);
    expect(await insertTaskWithinQuota(db.pool, cronTask(tenant.id, { key: 'b' }), 7)).toBe(true);
    expect(await insertTaskWithinQuota(db.pool, cronTask(tenant.id, { key: 'c' }), 9)).toBe(false);
    expect(await taskCount(tenant.id)).toBe(2);
  });

  it('a delete gives its place back once, after its commit', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const task = cronTask(tenant.id);
    expect(await insertTaskWithinQuota(db.pool, task, 11)).toBe(true);
    expect(await taskCount(tenant.id)).toBe(1);
    expect((await changeTask(db.pool, tenant.id, task.id, deleteTask))?.changed).toBe(true);
    expect(await taskCount(tenant.id)).toBe(0);
    // Deleted already: not found, nothing given back twice.
    expect(await changeTask(db.pool, tenant.id, task.id, deleteTask)).toBeNull();
    expect(await taskCount(tenant.id)).toBe(0);
  });

  it('places reserved for a write that throws are given back, all of them', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await db.pool.query('UPDATE tenants SET max_tasks = 3 WHERE id = ?', [idToBin(tenant.id)]);
    const failed = withTaskQuota(db.pool, tenant.id, 3, async () => {
      expect(await taskCount(tenant.id)).toBe(3);
      throw new Error('the shard refused');
    });
    await expect(failed).rejects.toThrow('the shard refused');
    expect(await taskCount(tenant.id)).toBe(0);
    expect(await withTaskQuota(db.pool, tenant.id, 4, async () => 'never')).toBeNull();
    expect(await taskCount(tenant.id)).toBe(0);
  });
});
