import { useTestDatabase } from '@dsched/testkit/test-stores';
import { itRoutesToOneShard, itSeesALostKey, type RoutedStatement } from '@dsched/testkit/vitess-routes';
import { describe } from 'vitest';

// The route of each statement of job-api's redrive through vtgate (docs/sharding.md, invariant
// 12): each batch is one group's of partitions (job-api's shard map, redrive.ts), by ids (the
// group of the partition each names) or by task (each group in turn), and the update is keyed by
// the locked rows' partitions. Runs on the Vitess leg only (`pnpm test:vitess`). The statements
// are sent as redrive.ts sends them, with partitions all on one shard.
const db = useTestDatabase(import.meta.url);

const JOBS = [Buffer.alloc(16, 7), Buffer.alloc(16, 9)];
const TENANT = Buffer.alloc(16, 3);

const KEYED: Record<string, RoutedStatement> = {
  "redrive: the tenant's dead jobs among ids, locked (redrive-select)": {
    file: 'jobs/control/redrive-select.sql',
    params: (partitions) => [partitions, JOBS, TENANT],
  },
  "redrive: a task's dead jobs, locked (redrive-select-task)": {
    file: 'jobs/control/redrive-select-task.sql',
    params: (partitions) => [partitions, Buffer.alloc(16, 5), TENANT, 500],
  },
  'redrive: the jobs pending again (redrive-update)': {
    file: 'jobs/control/redrive-update.sql',
    params: (partitions) => [partitions, JOBS],
  },
};

describe("job-api's redrive through vtgate", () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(db, 'a redrive that lost its key: without `partition IN`, the update goes to both shards', {
    file: 'jobs/control/redrive-update.sql',
    key: ' `partition` IN (?) AND',
    params: [JOBS],
  });
});
