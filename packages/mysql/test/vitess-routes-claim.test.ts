import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { clockedSql, withCases } from '@dsched/mysql/sql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  productSql,
  type RoutedStatement,
  routeOf,
  shardsIn,
} from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';

// The route of each statement of the claim through vtgate (docs/sharding.md, invariant 12): with
// the partitions of one shard as the claim's group, each reaches that shard of `dsched` alone.
// Runs on the Vitess leg only (vitess-*.test.ts). Each was watched failing once with its key made
// a no-op (`(\`partition\` IN (?) OR 1)`): it then reached both shards.
const db = useTestDatabase(import.meta.url);

const RUN_AT = new Date('2026-12-05T09:00:00.000Z');
/** Ids in the group's partitions, as a claim's locked rows would be. */
const ids = (partitions: number[]) => partitions.map((p) => idToBin(newId(RUN_AT.getTime(), p)));
/** The text as claims.ts sends it: `:now` as NOW(3) (clockedSql). */
const clocked = (text: string) => clockedSql(text)();
const cursor = [1, RUN_AT, 1, RUN_AT, Buffer.alloc(16), [2, 3]];

const deferUntil = (partitions: number[]) => {
  const pairs = ids(partitions).map((id) => [id, RUN_AT] as const);
  return withCases(clocked(productSql('jobs/flow-control/claim-defer-until.sql')), pairs, [
    pairs.map(([id]) => id),
    partitions,
  ]);
};

const CLAIM: Record<string, RoutedStatement> = {
  'claim: the idle probe (claim-probe)': {
    file: 'jobs/claim/claim-probe.sql',
    params: (p) => ['default', 0, p],
    text: clocked,
  },
  'claim: the FIFO lock (claim-select)': {
    file: 'jobs/claim/claim-select.sql',
    params: (p) => ['critical', 500_000, p, 100],
    text: clocked,
  },
  'claim: the FIFO lock after its cursor (claim-select-after)': {
    file: 'jobs/claim/claim-select-after.sql',
    params: (p) => ['default', 0, p, ...cursor, 100],
    text: clocked,
  },
  'claim: the fair lock (claim-select-fair)': {
    file: 'jobs/claim/claim-select-fair.sql',
    params: (p) => ['default', 0, p, 100],
    text: clocked,
  },
  'claim: the fair lock after its cursor (claim-select-fair-after)': {
    file: 'jobs/claim/claim-select-fair-after.sql',
    params: (p) => ['default', 0, p, 1, 5, 1, 5, RUN_AT, 1, 5, RUN_AT, Buffer.alloc(16), [2, 3], 100],
    text: clocked,
  },
  'claim: the locked rows (claim-read)': {
    file: 'jobs/claim/claim-read.sql',
    params: (p) => [ids(p), p],
    text: clocked,
  },
  'claim: the claimed rows (claim-update)': {
    file: 'jobs/claim/claim-update.sql',
    params: (p) => ['exec-1', RUN_AT, 60, ids(p), p],
    text: clocked,
  },
  'claim: a tenant at its limit (claim-defer)': {
    file: 'jobs/claim/claim-defer.sql',
    params: (p) => [1000, ids(p), p],
    text: clocked,
  },
  'claim: over a flow key (claim-defer-until)': {
    file: 'jobs/flow-control/claim-defer-until.sql',
    params: (p) => deferUntil(p).params,
    text: (_file, p) => deferUntil(p).sql,
  },
  'claim: cancelled before it ran (claim-cancel)': {
    file: 'jobs/claim/claim-cancel.sql',
    params: (p) => [ids(p), p],
    text: clocked,
  },
  'claim: cancels of calls in flight (claim-cancel-requested)': {
    file: 'jobs/claim/claim-cancel-requested.sql',
    params: (p) => [ids(p), 'exec-1', p],
  },
  'claim: the lease renewal (claim-lease-renew)': {
    file: 'jobs/claim/claim-lease-renew.sql',
    params: (p) => [60, ids(p).map((id) => [id, 1]), 'exec-1', p],
    text: clocked,
  },
  'claim: the lease check (claim-lease-check)': {
    file: 'jobs/claim/claim-lease-check.sql',
    params: (p) => [ids(p).map((id) => [id, 1]), 'exec-1', p],
  },
};

describe('the claim through vtgate', () => {
  itRoutesToOneShard(db, CLAIM);

  it("reads its jobs' tenants from the global keyspace alone, never from a shard of dsched (claim-tenants)", async () => {
    const route = await routeOf(db.pool, productSql('jobs/claim/claim-tenants.sql'), [ids([0, 1])]);
    expect(shardsIn(route)).toEqual([]);
    expect(shardsIn(route, 'dsched_global').length).toBe(1);
  });
});
