import { partitionInId } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { cancelWorkflow, setWorkflowPaused } from '../src/workflows/workflow-control.ts';

// A tenant's operations on a run lock it keyed by the partition its id names, and a run stored
// before the shard key (migration 0061, D54), whose rows sit in another partition than its id
// names, is found by its row and operated on keyed by its row's partition (keyed.ts). Moving a
// run's rows to another partition is an UPDATE of the vindex column, which vtgate refuses, so this
// file runs on MariaDB and MySQL only; the lock's route is vitess-routes-run-ends.test.ts's.

const db = useTestDatabase(import.meta.url);

const RUN_TABLES = ['workflows', 'workflow_nodes', 'workflow_edges', 'jobs'] as const;

/** Moves every row of the run to the partition after the one its id names (as 0061 left old runs). */
async function storedBeforeTheKey(id: string): Promise<number> {
  const moved = (partitionInId(id) + 1) % 64;
  for (const table of RUN_TABLES) {
    const column = table === 'workflows' ? 'id' : 'workflow_id';
    await db.pool.query(`UPDATE ${table} SET \`partition\` = ? WHERE ${column} = ?`, [moved, idToBin(id)]);
  }
  return moved;
}

async function runRow(id: string): Promise<RowDataPacket> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT state, paused, `partition` FROM workflows WHERE id = ?',
    [idToBin(id)],
  );
  return rows[0]!;
}

describe('a run stored before the shard key, in another partition than its id names (D54)', () => {
  it('is paused, resumed and cancelled by its row’s partition', async () => {
    const t = await createTenantWithKey(db.pool, 'old-run');
    const wf = await submitWorkflow(db.pool, t.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
    const partition = await storedBeforeTheKey(wf.id);
    expect(partition).not.toBe(partitionInId(wf.id));

    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    expect(await runRow(wf.id)).toMatchObject({ state: 'running', paused: 1, partition });
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    expect(await runRow(wf.id)).toMatchObject({ paused: 0 });
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('done');
    expect(await runRow(wf.id)).toMatchObject({ state: 'cancelled', partition });
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('not_running');
  });

  it('is not found by another tenant, nor is a run that exists nowhere', async () => {
    const t = await createTenantWithKey(db.pool, 'old-run-owner');
    const other = await createTenantWithKey(db.pool, 'old-run-other');
    const wf = await submitWorkflow(db.pool, t.id, [{ id: 'a' }]);
    await storedBeforeTheKey(wf.id);
    expect(await cancelWorkflow(db.pool, other.id, wf.id)).toBe('not_found');
    expect(await runRow(wf.id)).toMatchObject({ state: 'running' });
    expect(await cancelWorkflow(db.pool, t.id, '01900000-0000-7000-8000-000000000007')).toBe('not_found');
  });

  it('a run made with the key is locked in its id’s partition at the first try', async () => {
    const t = await createTenantWithKey(db.pool, 'new-run');
    const wf = await submitWorkflow(db.pool, t.id, [{ id: 'a' }]);
    expect((await runRow(wf.id)).partition).toBe(partitionInId(wf.id));
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    expect(await runRow(wf.id)).toMatchObject({ paused: 1 });
  });
});
