import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { claimNodeJobs, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { dumpSchema, migrateMysql } from '../src/migrations.ts';
import { setWorkflowPaused } from '../src/workflows/workflow-control.ts';

// Migration 0058 turns the jobs held under the sentinel date (run_at 9000-01-01, before the held
// flag) into held jobs. The database is taken back to 0057 (0058's schema undone), a paused run's
// jobs are held the old way, and 0058 runs again, on the engine of the run (MariaDB, or MySQL on
// `pnpm test:mysql`).

const db = useTestDatabase(import.meta.url);

/** Undoes 0058's schema change: the state the migration meets on a database at 0057. */
async function backTo0057(): Promise<void> {
  await db.pool.query(
    `ALTER TABLE jobs MODIFY COLUMN claim_lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin
       AS (CASE WHEN state = 'pending' THEN lane END) STORED`,
  );
  await db.pool.query('ALTER TABLE jobs DROP COLUMN held');
  await db.pool.query("DELETE FROM schema_migrations WHERE version = '0058'");
}

describe('migration 0058 (the held flag)', () => {
  it('makes the jobs held under the sentinel date held jobs, due from their hold or at their wake time', async () => {
    const schema = await dumpSchema(db.pool);
    const t = await createTenantWithKey(db.pool, 'held-migration');
    const wf = await submitWorkflow(db.pool, t.id, [{ id: 'a' }, { id: 'b' }]);
    const free = await submitWorkflow(db.pool, t.id, [{ id: 'c' }]);
    await backTo0057();
    // The pause as it was written before the flag (node-jobs-hold.sql before 0058): a's job held a
    // minute ago; b's job scheduled an hour ahead, as a sleep node's job is for its wake time.
    await db.pool.query('UPDATE workflows SET paused = 1 WHERE id = ?', [idToBin(wf.id)]);
    await db.pool.query(
      `UPDATE jobs SET run_at = '9000-01-01 00:00:00.000', updated_at = NOW(3) - INTERVAL 1 MINUTE,
              scheduled_for = IF(node_id = 'a', NOW(3) - INTERVAL 2 MINUTE, NOW(3) + INTERVAL 1 HOUR)
        WHERE workflow_id = ?`,
      [idToBin(wf.id)],
    );

    expect(await migrateMysql(db.pool)).toEqual(['0058_held_jobs']);
    expect(await dumpSchema(db.pool)).toBe(schema);

    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT held, run_at = updated_at AS from_hold, run_at = scheduled_for AS at_wake, run_at < NOW(3) AS due
         FROM jobs WHERE workflow_id = ? ORDER BY node_id`,
      [idToBin(wf.id)],
    );
    expect(rows.map((r) => [Number(r.held), Number(r.from_hold), Number(r.at_wake), Number(r.due)])).toEqual([
      [1, 1, 0, 1],
      [1, 0, 1, 0],
    ]);
    // Held: the other run's job is claimed, the paused run's are not, until the resume; then a's,
    // due since its hold, and not b's before its time.
    expect((await claimNodeJobs(db.pool)).map((j) => j.workflowId)).toEqual([free.id]);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    expect((await claimNodeJobs(db.pool)).map((j) => j.nodeId)).toEqual(['a']);
  });
});
