import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { claimNodeJobs, finishNodeJobs, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';

// A run's tags reach every node job, made at submission, by a held root's dispatch or by the walk,
// each with its index rows in job_tags (docs/tags.md); an untagged run's jobs get none.

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase(import.meta.url);
});
afterAll(async () => {
  await db.close();
});

async function jobTags(workflowId: string): Promise<Record<string, [unknown, string[]]>> {
  // A row per job and index row, gathered here: vtgate cannot merge a GROUP_CONCAT … ORDER BY
  // across the shards this unkeyed read reaches (VT12001).
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT j.node_id, j.tags, jt.tag
       FROM jobs j LEFT JOIN job_tags jt
            ON jt.job_id = j.id AND jt.scheduled_for = j.scheduled_for AND jt.\`partition\` = j.\`partition\`
      WHERE j.workflow_id = ?`,
    [idToBin(workflowId)],
  );
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  const out: Record<string, [unknown, string[]]> = {};
  for (const r of rows) {
    out[r.node_id] ??= [json(r.tags), []];
    if (r.tag !== null) out[r.node_id]![1].push(r.tag);
  }
  for (const entry of Object.values(out)) entry[1].sort();
  return out;
}

async function drain(workflowId: string, perStep: number): Promise<void> {
  for (;;) {
    const jobs = (await claimNodeJobs(db.pool)).filter((j) => j.workflowId === workflowId);
    if (jobs.length === 0) return;
    expect(jobs.length).toBeLessThanOrEqual(perStep);
    await finishNodeJobs(db.pool, jobs, () => 'succeeded');
  }
}

const tags = { team: 'data', env: 'prod' };
const indexed = ['env:prod', 'team:data'];

it('the submission and the walk copy the run’s tags to the node jobs, with index rows', async () => {
  const t = await createTenantWithKey(db.pool, 'walk');
  const wf = await submitWorkflow(
    db.pool,
    t.id,
    [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c', dependsOn: ['b'] }],
    { extra: { tags } },
  );
  expect(await jobTags(wf.id)).toEqual({ a: [tags, indexed] });
  await drain(wf.id, 1);
  expect(await jobTags(wf.id)).toEqual({ a: [tags, indexed], b: [tags, indexed], c: [tags, indexed] });
});

it('so does the dispatch of roots held by maxParallel', async () => {
  const t = await createTenantWithKey(db.pool, 'held');
  const wf = await submitWorkflow(db.pool, t.id, [{ id: 'r1' }, { id: 'r2' }, { id: 'r3' }], {
    extra: { tags, maxParallel: 1 },
  });
  expect(Object.keys(await jobTags(wf.id))).toEqual(['r1']);
  await drain(wf.id, 1);
  expect(await jobTags(wf.id)).toEqual({ r1: [tags, indexed], r2: [tags, indexed], r3: [tags, indexed] });
});

it('an untagged run’s jobs get none', async () => {
  const t = await createTenantWithKey(db.pool, 'plain');
  const plain = await submitWorkflow(db.pool, t.id, [{ id: 'x' }, { id: 'y', dependsOn: ['x'] }]);
  await drain(plain.id, 1);
  expect(await jobTags(plain.id)).toEqual({ x: [null, []], y: [null, []] });
});
