import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  itSeesALostKey,
  productSql,
  routeOf,
  shardsIn,
} from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';

// The route of each statement of the reconciler's recount of the task quota through vtgate
// (task-count-recount.ts, D63): the tenants' counts are in dsched_global, their tasks and runs in
// the shards of dsched, so the pass reads the counts from dsched_global alone, counts what each
// tenant holds shard by shard (each count keyed by one group's partitions: one shard, never a
// scatter), and writes a count back to dsched_global alone. Runs on the Vitess leg only
// (vitess-*.test.ts); the pass itself runs through vtgate in task-count-recount.test.ts. Watched
// failing once with the counts' key made a no-op (`(`partition` IN (?) OR 1)`): both reached both
// shards.
const db = useTestDatabase(import.meta.url);

const TENANTS = [0, 1].map((p) => idToBin(newId(Date.now(), p)));

const COUNTS = {
  "a group's live tasks of a page of tenants (recount-live-tasks)": {
    file: 'tasks/recount-live-tasks.sql',
    params: (p: number[]) => [p, TENANTS],
  },
  "a group's runs holding a place, of a page of tenants (recount-live-runs)": {
    file: 'tasks/recount-live-runs.sql',
    params: (p: number[]) => [p, TENANTS],
  },
};

const GLOBAL: Record<string, { file: string; params: unknown[] }> = {
  "a page of tenants' counts (recount-tenants-page)": {
    file: 'tasks/recount-tenants-page.sql',
    params: [Buffer.alloc(16), 500],
  },
  "a tenant's count lowered, while it is the one read (recount-set)": {
    file: 'tasks/recount-set.sql',
    params: [1, TENANTS[0], 3],
  },
};

describe("the reconciler's recount of the task quota through vtgate (D63)", () => {
  itRoutesToOneShard(db, COUNTS);

  itSeesALostKey(
    db,
    'a count that lost its key: without `partition IN`, the tasks are counted on both shards',
    {
      file: 'tasks/recount-live-tasks.sql',
      key: '`partition` IN (?) AND ',
      params: [TENANTS],
    },
  );

  for (const [name, s] of Object.entries(GLOBAL)) {
    it(`${name} goes to dsched_global alone, never to a shard of dsched`, async () => {
      const route = await routeOf(db.pool, productSql(s.file), s.params);
      expect(shardsIn(route)).toEqual([]);
      expect(shardsIn(route, 'dsched_global')).toHaveLength(1);
    });
  }
});
