import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, itSeesALostKey, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';

// The route of each statement of the reconciler's workflow sweep through vtgate (docs/sharding.md,
// invariant 12). A sweep pass serves one group of partitions (one shard: the reconciler sweeps each
// group of its shard map with a cursor of each, workflow-sweep.ts): the page of running runs, the
// runs past their deadline and the due occurrence jobs of workflow tasks are read for the group,
// the stranded nodes for the page's partitions, and each scheduled start is keyed by its
// occurrence job's partition, which its task and its run share. Runs on the Vitess leg only
// (`pnpm test:vitess`). The statements are sent as workflow-sweep.ts and workflow-scheduled.ts send
// them, with partitions all on one shard.
const db = useTestDatabase(import.meta.url);

const RUNS = [Buffer.alloc(16, 7), Buffer.alloc(16, 9)];
const AFTER = Buffer.alloc(16, 0);

const KEYED: Record<string, RoutedStatement> = {
  'sweep: a page of running runs (sweep-running)': {
    file: 'workflows/sweep-running.sql',
    params: (partitions) => [partitions, AFTER, 10],
  },
  'sweep: the runs past their deadline (sweep-past-deadline)': {
    file: 'workflows/sweep-past-deadline.sql',
    params: (partitions) => [partitions, 10],
  },
  "sweep: the page's stranded nodes (sweep-stranded-nodes)": {
    file: 'workflows/sweep-stranded-nodes.sql',
    params: (partitions) => [partitions, RUNS, 10],
  },
  "sweep: a workflow task's due occurrence job, locked (scheduled-start-lock)": {
    file: 'workflows/scheduled-start-lock.sql',
    params: (partitions) => [partitions, 1],
  },
  'sweep: its task (scheduled-start-task)': {
    file: 'workflows/scheduled-start-task.sql',
    params: (partitions) => [partitions[0], RUNS[0]],
  },
  'sweep: the occurrence job running with its run (scheduled-start-park)': {
    file: 'workflows/scheduled-start-park.sql',
    params: (partitions) => [partitions[0], RUNS[0], 0],
  },
  'sweep: an occurrence job with no workflow to start (scheduled-start-refuse)': {
    file: 'workflows/scheduled-start-refuse.sql',
    params: (partitions) => ['no workflow', partitions[0], RUNS[0], 0],
  },
};

describe("the workflow sweep's statements through vtgate", () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    'a sweep statement that lost its key: without `partition IN`, the page is read on both shards',
    {
      file: 'workflows/sweep-running.sql',
      key: ' AND `partition` IN (?)',
      params: [AFTER, 10],
    },
  );
});
