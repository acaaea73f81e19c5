import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { clockedSql, withSearch } from '@dsched/mysql/sql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  productSql,
  type RoutedStatement,
  routeOf,
  shardsIn,
} from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';

// The route of each statement of the fair-share tagger through vtgate (docs/sharding.md "Fair
// share per shard", invariant 12): with the partitions of one shard as the tagger's group, each
// reaches that shard of `dsched` alone, its clocks keyed by the group's anchor (its lowest
// partition). Runs on the Vitess leg only (vitess-*.test.ts). Each was watched failing once with
// its key made a no-op (`(\`partition\` IN (?) OR 1)`, `(\`partition\` = ? OR 1)`): it then
// reached both shards.
const db = useTestDatabase(import.meta.url);

const RUN_AT = new Date('2026-12-05T09:00:00.000Z');
const TENANT = idToBin(newId(RUN_AT.getTime()));
/** Ids in the group's partitions, as a pass's untagged rows would be. */
const ids = (partitions: number[]) => partitions.map((p) => idToBin(newId(RUN_AT.getTime(), p)));
const anchor = (partitions: number[]) => Math.min(...partitions);
/** The text as fair-tags.ts sends it: `:now` as NOW(3) (clockedSql). */
const clocked = (text: string) => clockedSql(text)();

const tagsUpdate = (partitions: number[]) => {
  const rows = ids(partitions);
  return withSearch(
    productSql('jobs/fair-share/fair-tags-update.sql'),
    'id',
    rows.map((id, i) => [id, 1000 * i] as const),
    [rows, partitions],
  );
};

const TAGGER: Record<string, RoutedStatement> = {
  'tag: the shard’s lane clock, locked (fair-clock-lock)': {
    file: 'jobs/fair-share/fair-clock-lock.sql',
    params: (p) => [anchor(p), 'default'],
  },
  'tag: whether that clock exists (fair-clock-exists)': {
    file: 'jobs/fair-share/fair-clock-exists.sql',
    params: (p) => [anchor(p), 'default'],
  },
  'tag: the shard’s first pass makes its clock (fair-clock-insert)': {
    file: 'jobs/fair-share/fair-clock-insert.sql',
    params: (p) => [anchor(p), 'default'],
  },
  'tag: the untagged due jobs (fair-untagged-select)': {
    file: 'jobs/fair-share/fair-untagged-select.sql',
    params: (p) => ['default', 0, p, 500],
    text: clocked,
  },
  'tag: each walked tenant’s oldest untagged job, two dives (fair-heads-select)': {
    file: 'jobs/fair-share/fair-heads-select.sql',
    params: (p) => [...['default', TENANT, p, 0], ...['default', TENANT, p, 0]],
    text: (text) => `${clocked(text)}\nUNION ALL\n${clocked(text)}`,
  },
  'tag: the head of the shard’s tagged queue (fair-head)': {
    file: 'jobs/fair-share/fair-head.sql',
    params: (p) => [0, 1, 2, 3].flatMap(() => ['default', p]),
  },
  'tag: the tenants’ clocks on the shard (fair-tenants-read)': {
    file: 'jobs/fair-share/fair-tenants-read.sql',
    params: (p) => [anchor(p), 'default', [TENANT]],
  },
  'tag: the jobs’ tags, a CASE by binary search (fair-tags-update)': {
    file: 'jobs/fair-share/fair-tags-update.sql',
    params: (p) => tagsUpdate(p).params,
    text: (_file, p) => tagsUpdate(p).sql,
  },
  'tag: the tenants’ finish tags (fair-tenant-clocks-upsert)': {
    file: 'jobs/fair-share/fair-tenant-clocks-upsert.sql',
    params: (p) => [[[anchor(p), TENANT, 'default', 5]]],
  },
  'tag: the shard’s lane clock stored (fair-clock-update)': {
    file: 'jobs/fair-share/fair-clock-update.sql',
    params: (p) => [5, 5, null, anchor(p), 'default'],
  },
};

describe('the fair-share tagger through vtgate', () => {
  itRoutesToOneShard(db, TAGGER);

  it('walks the tenants in the global keyspace alone, never a shard of dsched (fair-tenants-walk)', async () => {
    const route = await routeOf(db.pool, productSql('jobs/fair-share/fair-tenants-walk.sql'), [
      Buffer.alloc(0),
      500,
    ]);
    expect(shardsIn(route)).toEqual([]);
    expect(shardsIn(route, 'dsched_global').length).toBe(1);
  });
});
