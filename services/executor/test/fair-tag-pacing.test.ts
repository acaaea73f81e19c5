import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { testKeyring } from '@dsched/testkit/secrets';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { beforeEach, describe, expect, it } from 'vitest';
import { FAIR_LANES, FAIR_TAG_INTERVAL_MS, mysqlJobClaimer } from '../src/adapters/mysql.ts';

// How often a fair lane's claims tag (FairTagPacer), with the real claimer on real MariaDB and an
// injected monotonic clock: while the lane drains a backlog that is all tagged, a claim skips the
// tagging pass, so a job that became due meanwhile waits at most FAIR_TAG_INTERVAL_MS; a short
// claim, or a pass that had more to tag than it could, means the next claim tags first.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(() => clearJobs(db.pool));

function claimer(clock: { now: number }) {
  return mysqlJobClaimer(db.pool, {
    owner: 'exec-pacing',
    leaseSeconds: 60,
    deferMs: 1000,
    fairLanes: FAIR_LANES,
    keyring: testKeyring(),
    nodeInputs: { maxRequestBytes: 256 * 1024, taskApiUrl: 'http://127.0.0.1:8080' },
    monotonicMs: () => clock.now,
  });
}

async function tagged(ids: string[]): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND fair_tag IS NOT NULL',
    [ids.map((id) => Buffer.from(id.replaceAll('-', ''), 'hex'))],
  );
  return Number(rows[0]!.n);
}

describe('the fair lane tags before a claim', () => {
  it('skips the pass while its claims are full and all is tagged, and tags again after the interval', async () => {
    const flood = await createTenantWithKey(db.pool, 'pacing-flood');
    const quiet = await createTenantWithKey(db.pool, 'pacing-quiet');
    await insertDueJobs(db.pool, { tenantId: flood.id, target }, 300);
    const clock = { now: 1_000 };
    const claim = claimer(clock);

    // First claim: tags all 300 (fewer than a pass may tag: nothing left), claims 50 (full).
    expect((await claim('default', 50)).jobs).toHaveLength(50);
    const [late] = await insertDueJobs(db.pool, { tenantId: quiet.id, target }, 1);

    // Within the interval the pass is skipped: the quiet tenant's new job is not tagged yet, so
    // the claim takes the flood's tagged jobs only.
    clock.now += FAIR_TAG_INTERVAL_MS - 1;
    const within = await claim('default', 50);
    expect(within.jobs).toHaveLength(50);
    expect(within.jobs.map((j) => j.id)).not.toContain(late);
    expect(await tagged([late!])).toBe(0);

    // At the interval the claim tags first: the quiet tenant starts at the lane's virtual time,
    // ahead of the flood's queued tags, and is in this claim.
    clock.now += 1;
    const after = await claim('default', 50);
    expect(after.jobs.map((j) => j.id)).toContain(late);
  });

  it('tags before every claim after a short claim', async () => {
    const tenant = await createTenantWithKey(db.pool, 'pacing-short');
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 10);
    const clock = { now: 1_000 };
    const claim = claimer(clock);

    expect((await claim('default', 50)).jobs).toHaveLength(10); // short: the lane ran dry
    const [next] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const again = await claim('default', 50); // same instant, but the last claim was short
    expect(again.jobs.map((j) => j.id)).toEqual([next]);
  });

  it('tags before every claim while a pass leaves untagged due jobs behind', async () => {
    const flood = await createTenantWithKey(db.pool, 'pacing-big-flood');
    const quiet = await createTenantWithKey(db.pool, 'pacing-big-quiet');
    // More than one pass tags (at most max(4 × limit, 500)): the first pass leaves 100 untagged.
    await insertDueJobs(db.pool, { tenantId: flood.id, target }, 600);
    const clock = { now: 1_000 };
    const claim = claimer(clock);

    expect((await claim('default', 50)).jobs).toHaveLength(50);
    const [late] = await insertDueJobs(db.pool, { tenantId: quiet.id, target }, 1);
    // Same instant, full claim: but the last pass was not drained, so this claim tags first (the
    // rest of the flood, due earlier, and then the quiet tenant's job).
    await claim('default', 50);
    expect(await tagged([late!])).toBe(1);
  });
});
