import type { Pool } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { testKeyring } from '@dsched/testkit/secrets';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAIR_LANES, mysqlJobClaimer } from '../src/adapters/mysql.ts';

// An idle lane's poll, with the real claimer on real MariaDB: one plain read (claim-probe.sql)
// while nothing is claimable, no transaction (counted as the connections the claimer takes from
// the pool: every transaction takes one, a plain pool query does not); a job that becomes due (or,
// on a lane with a lead, comes within it) is claimed by the next poll.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(() => clearJobs(db.pool));

/** The real pool, counting the connections taken for transactions. */
function countingPool(): { pool: Pool; transactions: () => number } {
  let taken = 0;
  const pool = new Proxy(db.pool, {
    get(real, prop) {
      if (prop === 'getConnection') {
        return () => {
          taken++;
          return real.getConnection();
        };
      }
      const value = Reflect.get(real, prop, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
  return { pool, transactions: () => taken };
}

function claimer(pool: Pool) {
  return mysqlJobClaimer(pool, {
    owner: 'exec-probe',
    leaseSeconds: 60,
    deferMs: 1000,
    leadMs: { critical: 500 },
    fairLanes: FAIR_LANES,
    keyring: testKeyring(),
    nodeInputs: { maxRequestBytes: 256 * 1024, taskApiUrl: 'http://127.0.0.1:8080' },
  });
}

describe('an idle lane polls with one plain read', () => {
  it('runs no transaction while nothing is claimable, and claims a job as soon as one is due', async () => {
    const tenant = await createTenantWithKey(db.pool, 'probe-idle');
    // Pending but not due for an hour: nothing is claimable yet.
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, runInS: 3600 }, 3);
    const { pool, transactions } = countingPool();
    const claim = claimer(pool);

    for (const lane of ['default', 'long', 'critical'] as const) {
      expect((await claim(lane, 10)).jobs).toHaveLength(0);
    }
    expect(transactions()).toBe(0);

    const [due] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const claimed = await claim('default', 10);
    expect(claimed.jobs.map((j) => j.id)).toEqual([due]);
    expect(transactions()).toBeGreaterThan(0);
  });

  it('finds a job within the lane lead (the critical lane claims ahead)', async () => {
    const tenant = await createTenantWithKey(db.pool, 'probe-lead');
    const [soon] = await insertDueJobs(
      db.pool,
      { tenantId: tenant.id, target, priority: 0, lane: 'critical', runInS: 0.3 },
      1,
    );
    const { pool } = countingPool();
    const claimed = await claimer(pool)('critical', 10);
    expect(claimed.jobs.map((j) => j.id)).toEqual([soon]);
  });
});
