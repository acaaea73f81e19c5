import { newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { clockedSql, withRows } from '@dsched/mysql/sql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { productSql, routeOf, shardsIn } from '@dsched/testkit/vitess-routes';
import { describe, expect, it } from 'vitest';

// The route of each statement on the tenant-wide limits through vtgate (docs/sharding.md, "Tenant-
// wide limits in the global keyspace"): the claim's step 2 (slots, flow keys and their holds), the
// lease keeper's renewal of them and the outcome's release after its commit each reach the one
// shard of the unsharded `dsched_global` alone, never a shard of `dsched`, so neither the claim's
// nor the outcome's shard transaction becomes a transaction over two keyspaces; the claim's step 3
// (claim-update, claim-defer, claim-defer-until) is in vitess-routes-claim.test.ts. Runs on the
// Vitess leg only (vitess-*.test.ts). Watched failing once with flow-running.sql counting running
// job rows again (its text before migration 0063): it then reached both shards of dsched.
const db = useTestDatabase(import.meta.url);

const AT = new Date('2026-12-05T09:00:00.000Z');
const TENANT = idToBin(newId(AT.getTime(), 0));
/** Jobs on both shards of dsched: a statement of dsched_global must not care. */
const JOBS = [0, 1, 2, 3].map((p) => idToBin(newId(AT.getTime(), p)));
const KEYS = [
  [TENANT, 'endpoint'],
  [TENANT, 'billing'],
];
/** The text as the product sends it: `:now` as NOW(3) (clockedSql). */
const clocked = (file: string) => clockedSql(productSql(file))();
/** claim-holds.ts's slot read: one part per limited tenant, comments dropped, UNION ALL. */
const slotParts = (n: number) =>
  Array.from({ length: n }, () =>
    clocked('jobs/claim/claim-slots-part.sql')
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n'),
  ).join('\nUNION ALL\n');

const slotsHold = withRows(
  clocked('jobs/claim/claim-slots-hold.sql'),
  ['tenant_id', 'slot', 'job_id', 'attempt'],
  JOBS.map((id, i) => [TENANT, i, id, 1]),
);
const holdsTake = withRows(
  clocked('jobs/flow-control/flow-holds-take.sql'),
  ['job_id', 'attempt', 'tenant_id', 'flow_key'],
  JOBS.map((id) => [id, 1, TENANT, 'endpoint']),
);
const keysTat = withRows(
  productSql('jobs/flow-control/flow-keys-tat.sql'),
  ['tenant_id', 'flow_key', 'tat'],
  KEYS.map((k) => [...k, AT]),
);

const GLOBAL: Record<string, { sql: string; params: unknown[] }> = {
  'claim step 2: free slots of two tenants (claim-slots-part)': {
    sql: slotParts(2),
    params: [TENANT, 5, 3, idToBin(newId(AT.getTime(), 1)), 2, 1],
  },
  'claim step 2: the slots taken (claim-slots-hold)': {
    sql: slotsHold.sql,
    params: [...slotsHold.params, 60],
  },
  'claim step 2: the keys that exist (flow-keys-existing)': {
    sql: productSql('jobs/flow-control/flow-keys-existing.sql'),
    params: [KEYS],
  },
  'claim step 2: the keys locked (flow-keys-lock)': {
    sql: productSql('jobs/flow-control/flow-keys-lock.sql'),
    params: [KEYS],
  },
  'claim step 2: calls in flight from the holds (flow-running)': {
    sql: clocked('jobs/flow-control/flow-running.sql'),
    params: [KEYS],
  },
  'claim step 2: expired holds (flow-holds-expire)': {
    sql: clocked('jobs/flow-control/flow-holds-expire.sql'),
    params: [KEYS],
  },
  'claim step 2: the rate state (flow-keys-tat)': { sql: keysTat.sql, params: keysTat.params },
  'claim step 2: the holds taken (flow-holds-take)': {
    sql: holdsTake.sql,
    params: [60, ...holdsTake.params],
  },
  'claim, after: new keys (flow-keys-create)': {
    sql: productSql('jobs/flow-control/flow-keys-create.sql'),
    params: [KEYS],
  },
  'lease keeper: slots renewed (slots-renew)': {
    sql: clocked('jobs/claim/slots-renew.sql'),
    params: [60, JOBS.map((id, i) => [TENANT, i, id, 1])],
  },
  'lease keeper: flow holds renewed (flow-holds-renew)': {
    sql: clocked('jobs/flow-control/flow-holds-renew.sql'),
    params: [60, JOBS.map((id) => [id, 1])],
  },
  'outcome, after its commit: slots freed (slots-release)': {
    sql: productSql('jobs/follow-ups/slots-release.sql'),
    params: [JOBS.map((id, i) => [TENANT, i, id, 1])],
  },
  'outcome, after its commit: flow holds freed (flow-holds-release)': {
    sql: productSql('jobs/flow-control/flow-holds-release.sql'),
    params: [JOBS.map((id) => [id, 1])],
  },
};

describe('the tenant-wide limits through vtgate', () => {
  for (const [name, s] of Object.entries(GLOBAL)) {
    it(`${name} goes to dsched_global alone, never to a shard of dsched`, async () => {
      const route = await routeOf(db.pool, s.sql, s.params);
      expect(shardsIn(route)).toEqual([]);
      expect(shardsIn(route, 'dsched_global')).toHaveLength(1);
    });
  }
});
