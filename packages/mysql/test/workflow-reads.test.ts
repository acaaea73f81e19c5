import type { WorkflowPlan, WorkflowRecord } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { submitWorkflow } from '@dsched/testkit/workflows';
import { expect, it } from 'vitest';
import { cancelWorkflow } from '../src/workflows/workflow-control.ts';
import { getWorkflow } from '../src/workflows/workflow-reads.ts';

// A run's read is one snapshot, on real MariaDB: readers that poll a run while it is cancelled see
// it either before the cancel (running, nothing cancelled) or after (cancelled, every node
// cancelled), never a running run with cancelled nodes.

const db = useTestDatabase(import.meta.url);

/** A diamond: a → b, c → d. */
const submit = (tenantId: string): Promise<WorkflowPlan> =>
  submitWorkflow(db.pool, tenantId, [
    { id: 'a' },
    { id: 'b', dependsOn: ['a'] },
    { id: 'c', dependsOn: ['a'] },
    { id: 'd', dependsOn: ['b', 'c'] },
  ]);

it('a run read while it is cancelled is wholly before or wholly after the cancel', async () => {
  const t = await createTenantWithKey(db.pool, 'reads-snapshot');
  const torn: string[] = [];
  let reads = 0;
  // Each round: four readers poll one run (bounded) while it is cancelled.
  for (let round = 0; round < 25; round++) {
    const wf = await submit(t.id);
    let done = false;
    const reader = async () => {
      for (let i = 0; i < 500 && !done; i++) {
        const seen: WorkflowRecord | null = await getWorkflow(db.pool, t.id, wf.id);
        reads++;
        const cancelled = seen!.nodes.cancelled;
        if (seen!.state === 'cancelled') done = true;
        const whole = seen!.state === 'running' ? cancelled === 0 : cancelled === 4;
        if (!whole) torn.push(`${seen!.state} with ${cancelled} cancelled`);
      }
    };
    const readers = [reader(), reader(), reader(), reader()];
    await new Promise((r) => setTimeout(r, 5));
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('done');
    await Promise.all(readers);
  }
  expect(reads).toBeGreaterThan(100);
  expect(torn).toEqual([]);
});
