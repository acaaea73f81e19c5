import type { PartitionGroup } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { testKeyring } from '@dsched/testkit/secrets';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { beforeEach, describe, expect, it } from 'vitest';
import { mysqlJobClaimer, mysqlLeaseRenewer } from '../src/adapters/mysql.ts';

// The executor's claim per group of partitions (docs/sharding.md), with the real claimer on real
// MariaDB and a shard map of two groups as Vitess would give for two shards (even partitions on
// `-80`, odd on `80-`): each claim takes jobs of one group only, the lane takes the groups in turn,
// passes over a group with nothing claimable in the same call, and renews each claim in its group.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };
const all = Array.from({ length: 64 }, (_, i) => i);
const TWO: PartitionGroup[] = [
  { shard: '-80', partitions: all.filter((p) => p % 2 === 0) },
  { shard: '80-', partitions: all.filter((p) => p % 2 === 1) },
];
const shards = { groups: () => TWO, refresh: async () => TWO };

beforeEach(() => clearJobs(db.pool));

function claimer() {
  return mysqlJobClaimer(db.pool, {
    shards,
    owner: 'exec-groups',
    leaseSeconds: 60,
    deferMs: 1000,
    keyring: testKeyring(),
    nodeInputs: { maxRequestBytes: 256 * 1024, taskApiUrl: 'http://127.0.0.1:8080' },
  });
}

describe('the executor claims a group at a time', () => {
  it('takes the groups in turn, a claim from one group only', async () => {
    const tenant = await createTenantWithKey(db.pool, 'groups-turns');
    const even = await insertDueJobs(db.pool, { tenantId: tenant.id, target, partition: 4 }, 5);
    const odd = await insertDueJobs(db.pool, { tenantId: tenant.id, target, partition: 7 }, 5);
    const claim = claimer();
    const partitionsOf = async () => {
      const r = await claim('default', 3);
      return r.jobs.map((j) => j.partition);
    };
    expect(await partitionsOf()).toEqual([4, 4, 4]);
    expect(await partitionsOf()).toEqual([7, 7, 7]);
    expect(await partitionsOf()).toEqual([4, 4]);
    expect(await partitionsOf()).toEqual([7, 7]);
    expect(await partitionsOf()).toEqual([]);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE state = 'running' AND claimed_by = 'exec-groups'",
    );
    expect(Number(rows[0]!.n)).toBe(even.length + odd.length);
  });

  it('passes over a group with nothing claimable within the same claim', async () => {
    const tenant = await createTenantWithKey(db.pool, 'groups-idle');
    const odd = await insertDueJobs(db.pool, { tenantId: tenant.id, target, partition: 63 }, 2);
    // The lane's turn starts at the first group (`-80`), which has nothing due.
    const result = await claimer()('default', 10);
    expect(result.jobs.map((j) => j.id).sort()).toEqual([...odd].sort());
  });

  it("renews each claim keyed by its group: a claim named in the wrong partition is not this executor's", async () => {
    const tenant = await createTenantWithKey(db.pool, 'groups-renew');
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, partition: 2 }, 1);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, partition: 3 }, 1);
    const claim = claimer();
    const jobs = [...(await claim('default', 10)).jobs, ...(await claim('default', 10)).jobs];
    expect(jobs.map((j) => j.partition).sort()).toEqual([2, 3]);
    const renew = mysqlLeaseRenewer(db.pool, { owner: 'exec-groups', leaseSeconds: 600, shards });
    const held = jobs.map((j) => ({ id: j.id, attempt: j.attempt, partition: j.partition! }));
    expect(await renew(held)).toEqual({ lost: [], cancelRequested: [] });
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM jobs WHERE lease_expires_at > NOW(3) + INTERVAL 300 SECOND',
    );
    expect(Number(rows[0]!.n)).toBe(2);
    // The even job named as if in partition 1: its statement goes to the odd group and misses it.
    const wrong = held.map((c) => (c.partition === 2 ? { ...c, partition: 1 } : c));
    const report = await renew(wrong);
    expect(report.lost.map((c) => c.id)).toEqual([jobs.find((j) => j.partition === 2)!.id]);
  });
});
