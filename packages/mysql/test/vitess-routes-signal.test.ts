import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { EVEN, itRoutesToOneShard, ODD, singleModePool } from '@dsched/testkit/vitess-routes';
import { nodeStates, submitWorkflow } from '@dsched/testkit/workflows';
import { describe, expect, it } from 'vitest';
import { signalWaitNode } from '../src/workflows/node-signal.ts';

// A wait node's signal (node-signal.ts) is one transaction on its run's shard: the node and run
// read, the job locked and ended, by the run's partition (its id's, or its row's for a run stored
// before the key: keyed.ts), then the finish path keyed as ever. Runs on the Vitess leg only
// (vitess-*.test.ts). Watched failing with node-signal-lock's key made a no-op
// ((`partition` = ? OR 1)): its route reached ['-80', '80-'] (the single-mode signals below still
// passed: vtgate in single mode let that scattered locking read through, as lock-task's in
// vitess-routes-task.test.ts; the route is what catches a lost key). Before this keying, the
// signals of workflow-waits.test.ts failed in single mode with "multi-db transaction attempted".
const db = useTestDatabase(import.meta.url);
/** Sessions in single transaction mode, whatever vtgate's default. */
const single = singleModePool(db);

const run = (p: number) => idToBin(newId(Date.now(), p));

describe("a wait node's signal through vtgate", () => {
  itRoutesToOneShard(db, {
    'the node and its run read (node-signal-read)': {
      file: 'workflows/node-signal-read.sql',
      params: (p) => [p[0], run(p[0]!), 'w'],
    },
    'its job locked (node-signal-lock)': {
      file: 'workflows/node-signal-lock.sql',
      params: (p) => [p[0], run(p[0]!)],
    },
    'its job ended, fenced by attempt and state (node-signal-end)': {
      file: 'workflows/node-signal-end.sql',
      params: (p) => [p[0], run(p[0]!), 0],
    },
  });

  it('signals wait nodes of runs on both shards in single transaction mode, and their children run', async () => {
    const t = await createTenantWithKey(db.pool);
    for (const partition of [EVEN[1]!, ODD[1]!]) {
      const wf = await submitWorkflow(
        db.pool,
        t.id,
        [
          { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
          { id: 'c', dependsOn: ['w'], inputs: 'parents' },
        ],
        { partition },
      );
      const req = { workflowId: wf.id, nodeId: 'w', tenantId: t.id, payload: '{"ok":true}', by: 'test' };
      expect(await signalWaitNode(single.pool, req)).toMatchObject({ result: 'signalled' });
      expect(await nodeStates(db.pool, wf)).toEqual({ w: 'succeeded', c: 'pending' });
      expect(await signalWaitNode(single.pool, { ...req, workflowId: newId() })).toEqual({
        result: 'not_found',
      });
    }
  });
});
