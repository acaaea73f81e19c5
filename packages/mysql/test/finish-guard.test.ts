import type { PoolConnection } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { finishJobs, followUps } from '../src/jobs/finish/index.ts';

// Without the workflows layer loaded (this file imports only jobs/), the finish path knows no
// follow-up for node jobs: it refuses a node job's end instead of leaving its run unwalked. No
// statement runs before the refusal, so no database is needed.

describe('the finish path without the workflows layer', () => {
  it('has only the follow-ups of jobs themselves', () => {
    // Not the tenant slots: the outcome frees them after its commit, in the global keyspace.
    expect(followUps().map((f) => f.name)).toEqual(['callback jobs', 'failure streaks']);
  });

  it('refuses a node job’s end, naming what to load', async () => {
    const conn = {} as PoolConnection;
    await expect(
      finishJobs(conn, [
        {
          id: '00000000-0000-7000-8000-000000000001',
          attempt: 1,
          partition: 0,
          state: 'succeeded',
          followUps: null,
          workflowNode: { workflowId: '00000000-0000-7000-8000-000000000002', nodeId: 'a', partition: 0 },
        },
      ]),
    ).rejects.toThrow(/@dsched\/mysql\/workflows/);
  });
});
