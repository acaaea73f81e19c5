import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  productSql,
  type RoutedStatement,
  routeOf,
  shardsIn,
} from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';

// The route of each hot statement of materialise through vtgate (docs/sharding.md, invariant 12):
// one shard, never scatter. Runs on the Vitess leg only (`pnpm test:vitess`: vitest.config.ts runs
// `vitess-*.test.ts` there and nowhere else). The other paths' route tests are
// `vitess-routes-*.test.ts` beside this file; the helper is @dsched/testkit/vitess-routes.
const db = useTestDatabase(import.meta.url);

const NOW = new Date('2026-12-05T09:00:00.000Z');

/** The hot statements of materialise keyed by the partition. */
const KEYED: Record<string, RoutedStatement> = {
  'materialise: the due set (select-due-tasks)': {
    file: 'scheduler/select-due-tasks.sql',
    params: (partitions) => [partitions, NOW, NOW, 1001],
  },
};

describe('hot statements through vtgate', () => {
  itRoutesToOneShard(db, KEYED);

  it('the check sees a statement that lost its key: without `partition IN`, the due set goes to both shards', async () => {
    const keyed = productSql('scheduler/select-due-tasks.sql');
    const unkeyed = keyed.replace(' AND `partition` IN (?)', '');
    expect(unkeyed).not.toBe(keyed);
    const route = await routeOf(db.pool, unkeyed, [NOW, NOW, 1001]);
    expect(shardsIn(route)).toEqual(['-80', '80-']);
  });
});
