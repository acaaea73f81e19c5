import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue, clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { ALL_PARTITIONS } from '../src/jobs/claim/claims.ts';
import { tagDueJobs } from '../src/jobs/fair-share/fair-tags.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { loadSql, withSearch } from '../src/sql.ts';
import { updateTenant } from '../src/tenants/tenant-store.ts';
import { explainJobsStatement, jobsSql, planSorts } from './plans.ts';

// The fair claim on real MariaDB: due jobs tagged by tagDueJobs, claimed in (priority, tag) order
// by claim-select-fair.sql. Plans, the share order over 50,000 jobs, jobs materialised ahead, a
// quiet tenant during a flood, retries tagged again, and a tenant at its limit not blocking others.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(() => clearJobs(db.pool));

async function rows(sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [r] = await db.pool.query<RowDataPacket[]>(sql, params);
  return r;
}

const claim = (owner: string, limit: number) =>
  claimDue(db.pool, { limit, owner, deferMs: 30_000, order: 'fair' });

/** Tags every due job of the default lane, a pass of `batch` at a time. */
async function tagAll(batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await tagDueJobs(db.pool, { lane: 'default', limit: batch });
    total += r.tagged;
    if (r.tagged < batch) return total;
  }
}

async function tenantWithWeight(name: string, weight: number, quotas = {}): Promise<string> {
  const t = await createTenantWithKey(db.pool, name, quotas);
  await updateTenant(db.pool, t.id, { weight });
  return t.id;
}

const plan = (file: string, params: unknown[]) => explainJobsStatement(db.pool, file, params);

/** One shard's group of partitions, of two shards (docs/sharding.md). */
const SHARD_OF_TWO = ALL_PARTITIONS.filter((p) => p % 2 === 0);

describe('the fair claim query', () => {
  it('is a covering range scan of jobs_fair in ORDER BY order: no filesort, untagged and not-yet-due rows not walked', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 50);
    await tagAll();
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 100);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 0, runInS: 3600 }, 200);
    await db.pool.query('ANALYZE TABLE jobs');
    for (const [file, params] of [
      ['claim-select-fair.sql', ['default', 0, SHARD_OF_TWO, 10]],
      ['fair-untagged-select.sql', ['default', 0, SHARD_OF_TWO, 10]],
    ] as const) {
      const { table, json, filesort } = await plan(file, [...params]);
      expect(table).toMatchObject({ key: 'jobs_fair', access_type: 'range' });
      expect(filesort, json).toBe(false);
    }
    // Keyed by a group (one primary's, one shard's of two): `partition` is the index's last column.
    for (const group of [ALL_PARTITIONS, SHARD_OF_TWO]) {
      const { table } = await plan('claim-select-fair.sql', ['default', 0, group, 10]);
      expect(table).toMatchObject({
        used_key_parts: ['claim_lane', 'priority', 'claim_tag'],
        using_index: true,
      });
    }
    const { table } = await plan('claim-select-fair.sql', ['default', 0, ALL_PARTITIONS, 10]);
    expect(table).toMatchObject({
      used_key_parts: ['claim_lane', 'priority', 'claim_tag'],
      using_index: true,
    });
    const after = await plan('claim-select-fair-after.sql', [
      'default',
      0,
      SHARD_OF_TWO,
      2,
      5,
      2,
      5,
      new Date(),
      2,
      5,
      new Date(),
      idToBin(tenant.id),
      [3],
      10,
    ]);
    expect(after.table).toMatchObject({ key: 'jobs_fair', access_type: 'range', using_index: true });
    expect(after.filesort, after.json).toBe(false);
  });
});

describe('the fair claim order', () => {
  it('claims 50,000 jobs of weights 1:2:5 in their shares, window after window', async () => {
    const a = await tenantWithWeight('a', 1);
    const b = await tenantWithWeight('b', 2);
    const c = await tenantWithWeight('c', 5);
    // Inserted tenant by tenant: a FIFO claim would take all of a's first.
    for (const id of [a, b, c]) {
      for (let i = 0; i < 5; i++) await insertDueJobs(db.pool, { tenantId: id, target }, 3334);
    }
    expect(await tagAll()).toBe(50_010);
    // While all three are backlogged (c runs out after about 26,700 claims): windows of 2,000.
    for (let w = 0; w < 12; w++) {
      const counts = new Map<string, number>();
      for (let k = 0; k < 4; k++) {
        for (const job of (await claim('e', 500)).jobs)
          counts.set(job.tenantId, (counts.get(job.tenantId) ?? 0) + 1);
      }
      expect(Math.abs((counts.get(a) ?? 0) / 2000 - 0.125)).toBeLessThan(0.01);
      expect(Math.abs((counts.get(b) ?? 0) / 2000 - 0.25)).toBeLessThan(0.01);
      expect(Math.abs((counts.get(c) ?? 0) / 2000 - 0.625)).toBeLessThan(0.01);
    }
  });

  it('does not let jobs materialised ahead push a tenant’s current work back, nor tag them before they are due', async () => {
    const early = await tenantWithWeight('early', 1);
    const other = await tenantWithWeight('other', 1);
    const ahead = await insertDueJobs(db.pool, { tenantId: early, target, runInS: 3600 }, 500);
    await insertDueJobs(db.pool, { tenantId: other, target }, 20);
    await insertDueJobs(db.pool, { tenantId: early, target }, 20);
    expect(await tagAll()).toBe(40);
    const untagged = await rows('SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND claim_tag IS NULL', [
      ahead.map(idToBin),
    ]);
    expect(Number(untagged[0]!.n)).toBe(500);
    // The two alternate from the start: early's 500 future jobs cost it nothing yet.
    const first = (await claim('e', 20)).jobs;
    expect(first.filter((j) => j.tenantId === early)).toHaveLength(10);
  });

  it('puts a quiet tenant’s one job into the next claim batch during a flood', async () => {
    const flood = await tenantWithWeight('flood', 1);
    const quiet = await tenantWithWeight('quiet', 1);
    await insertDueJobs(db.pool, { tenantId: flood, target }, 5000);
    await tagAll();
    await claim('e', 1000);
    const [one] = await insertDueJobs(db.pool, { tenantId: quiet, target }, 1);
    await tagAll();
    expect((await claim('e', 100)).jobs.map((j) => j.id)).toContain(one);
  });

  it('tags a quiet tenant’s job in the next pass, however large the untagged flood due before it', async () => {
    const flood = await tenantWithWeight('flood', 1);
    const quiet = await tenantWithWeight('quiet', 1);
    const ahead = await tenantWithWeight('ahead', 1);
    // The quiet tenant's older job is tagged already (its oldest pending job is not its oldest
    // untagged one), and another tenant has only jobs not yet due.
    const [older] = await insertDueJobs(db.pool, { tenantId: quiet, target }, 1);
    expect(await tagAll()).toBe(1);
    await insertDueJobs(db.pool, { tenantId: ahead, target, runInS: 3600 }, 10);
    await insertDueJobs(db.pool, { tenantId: flood, target }, 20_000);
    await insertDueJobs(db.pool, { tenantId: flood, target, runInS: 3600 }, 1000);
    // Due after all of the flood's: in due order it would wait 40 passes of 500.
    await db.pool.query(
      'UPDATE jobs SET run_at = run_at - INTERVAL 1 MINUTE WHERE tenant_id = ? AND run_at < NOW(3)',
      [idToBin(flood)],
    );
    const [one] = await insertDueJobs(db.pool, { tenantId: quiet, target }, 1);
    const pass = await tagDueJobs(db.pool, { lane: 'default', limit: 500 });
    expect(pass.tagged).toBe(501);
    expect((await claim('e', 10)).jobs.map((j) => j.id)).toEqual(expect.arrayContaining([older, one]));
    // Jobs not yet due stay untagged: the heads read keeps only due ones.
    const future = await rows('SELECT COUNT(*) AS n FROM jobs WHERE claim_tag IS NULL AND run_at > NOW(3)');
    expect(Number(future[0]!.n)).toBe(1010);
  });

  it('walks the tenants round, pass after pass, when there are more than one pass reads', async () => {
    const flood = await tenantWithWeight('flood-round', 1);
    await insertDueJobs(db.pool, { tenantId: flood, target }, 5000);
    await db.pool.query('UPDATE jobs SET run_at = run_at - INTERVAL 1 MINUTE');
    const quiet: string[] = [];
    for (let i = 0; i < 6; i++) {
      const t = await tenantWithWeight(`round-${i}`, 1);
      quiet.push(...(await insertDueJobs(db.pool, { tenantId: t, target }, 1)));
    }
    // Every tenant of the table (earlier tests' too) is walked once in ceil(tenants / 3) passes.
    const tenants = Number((await rows('SELECT COUNT(*) AS n FROM tenants'))[0]!.n);
    for (let p = 0; p < Math.ceil(tenants / 3); p++) {
      await tagDueJobs(db.pool, { lane: 'default', limit: 100, tenantsPerPass: 3 });
    }
    const untagged = await rows('SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND claim_tag IS NULL', [
      quiet.map(idToBin),
    ]);
    expect(Number(untagged[0]!.n)).toBe(0);
    // The flood's due-order passes went on beside: 100 a pass (its head is the first of them).
    const flooded = await rows(
      'SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND claim_tag IS NOT NULL',
      [idToBin(flood)],
    );
    expect(Number(flooded[0]!.n)).toBe(100 * Math.ceil(tenants / 3));
  });

  it('does not tag a job claimed between the tagger’s read and its update, so its retry is tagged afresh', async () => {
    const t = await tenantWithWeight('raced', 1);
    const [id] = await insertDueJobs(db.pool, { tenantId: t, target }, 1);
    // The tagger read it; a due-order claimer takes it before the tags are written.
    const [job] = (await claimDue(db.pool, { limit: 1, owner: 'e', deferMs: 30_000 })).jobs;
    expect(job!.id).toBe(id);
    const update = withSearch(
      loadSql(import.meta.url, '../src/jobs/fair-share/fair-tags-update.sql'),
      'id',
      [[idToBin(id!), 5]],
      [[idToBin(id!)], ALL_PARTITIONS],
    );
    const [r] = await db.pool.query<ResultSetHeader>(update.sql, update.params);
    expect(r.affectedRows).toBe(0);
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 0 },
        attempt: { status: 503, errorClass: 'http', error: 'HTTP 503', durationMs: 1 },
      },
    ]);
    const back = await rows('SELECT claim_tag FROM jobs WHERE id = ?', [idToBin(id!)]);
    expect(back[0]!.claim_tag).toBeNull();
  });

  it('does not tag again a job another pass tagged between this pass’s read and its update', async () => {
    // Passes on one shard's lane are serialised by its clock row; two groups that overlap (a shard
    // map a moment old during a resharding's cut-over) are not: the update's own condition holds.
    const t = await tenantWithWeight('tagged-twice', 1);
    const [id] = await insertDueJobs(db.pool, { tenantId: t, target }, 1);
    expect(await tagAll()).toBe(1);
    const before = await rows('SELECT fair_tag FROM jobs WHERE id = ?', [idToBin(id!)]);
    const update = withSearch(
      loadSql(import.meta.url, '../src/jobs/fair-share/fair-tags-update.sql'),
      'id',
      [[idToBin(id!), 123_456_789]],
      [[idToBin(id!)], ALL_PARTITIONS],
    );
    const [r] = await db.pool.query<ResultSetHeader>(update.sql, update.params);
    expect(r.affectedRows).toBe(0);
    const after = await rows('SELECT fair_tag FROM jobs WHERE id = ?', [idToBin(id!)]);
    expect(after[0]!.fair_tag).toEqual(before[0]!.fair_tag);
  });

  it('tags a retried job again when it is due, behind the work its tenant has waiting', async () => {
    const t = await tenantWithWeight('t', 1);
    await insertDueJobs(db.pool, { tenantId: t, target }, 3);
    await tagAll();
    const [job] = (await claim('e', 1)).jobs;
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 60_000 },
        attempt: { status: 503, errorClass: 'http', error: 'HTTP 503', durationMs: 1 },
      },
    ]);
    const back = await rows('SELECT fair_tag, claim_tag FROM jobs WHERE id = ?', [idToBin(job!.id)]);
    expect(back[0]!.fair_tag).not.toBeNull();
    expect(back[0]!.claim_tag).toBeNull();
    // Not due: not tagged. Due: tagged after the tenant's two waiting jobs.
    expect(await tagAll()).toBe(0);
    await db.pool.query('UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(job!.id),
    ]);
    expect(await tagAll()).toBe(1);
    const order = (await claim('e', 10)).jobs.map((j) => j.id);
    expect(order).toHaveLength(3);
    expect(order[2]).toBe(job!.id);
  });

  it('defers a tenant at its limit past the others in the same claim: it does not block the head', async () => {
    const limited = await tenantWithWeight('limited', 1000, { maxConcurrency: 1 });
    const open = await tenantWithWeight('open', 1);
    await insertDueJobs(db.pool, { tenantId: limited, target }, 50);
    await insertDueJobs(db.pool, { tenantId: open, target }, 5);
    await tagAll();
    // limited's weight puts all 50 at the head; one takes its slot, the rest are deferred.
    const first = await claim('e', 60);
    expect(first.jobs.filter((j) => j.tenantId === limited)).toHaveLength(1);
    expect(first.jobs.filter((j) => j.tenantId === open)).toHaveLength(5);
    expect(first.deferred).toBe(49);
    const deferred = await rows(
      "SELECT COUNT(*) AS n FROM jobs WHERE state = 'pending' AND claim_tag IS NULL",
    );
    expect(Number(deferred[0]!.n)).toBe(49);
  });
});

describe('fair share per shard (docs/sharding.md)', () => {
  const EVEN = ALL_PARTITIONS.filter((p) => p % 2 === 0);
  const ODD = ALL_PARTITIONS.filter((p) => p % 2 === 1);

  it('tags one group’s jobs with that shard’s clocks, keyed by its anchor, and leaves the other group’s untagged', async () => {
    const a = await tenantWithWeight('shard-a', 1);
    const b = await tenantWithWeight('shard-b', 3);
    await insertDueJobs(db.pool, { tenantId: a, target, partition: 2 }, 4);
    await insertDueJobs(db.pool, { tenantId: b, target, partition: 2 }, 4);
    await insertDueJobs(db.pool, { tenantId: a, target, partition: 5 }, 3);
    const even = await tagDueJobs(db.pool, { lane: 'default', limit: 100, partitions: EVEN });
    expect(even).toEqual({ tagged: 8, busy: false });
    const untagged = await rows(
      'SELECT `partition` AS p, COUNT(*) AS n FROM jobs WHERE claim_tag IS NULL GROUP BY `partition`',
    );
    expect(untagged.map((r) => [Number(r.p), Number(r.n)])).toEqual([[5, 3]]);
    // The odd shard's first pass makes its clock row at its anchor, 1, and starts its own clocks.
    expect(await tagDueJobs(db.pool, { lane: 'default', limit: 100, partitions: ODD })).toEqual({
      tagged: 3,
      busy: false,
    });
    const clocks = await rows(
      "SELECT `partition` AS p, max_tag FROM fair_clocks WHERE lane = 'default' ORDER BY `partition`",
    );
    expect(clocks.map((c) => Number(c.p))).toEqual([0, 1]);
    const tenantClocks = await rows(
      "SELECT `partition` AS p, tenant_id, vt FROM tenant_fair_clocks WHERE lane = 'default' AND tenant_id IN (?) ORDER BY `partition`, vt",
      [[idToBin(a), idToBin(b)]],
    );
    // a: 4 jobs at stride 1,000,000 on the even shard, 3 on the odd one; b (weight 3): 4 at 333,333.
    expect(tenantClocks.map((c) => [Number(c.p), Number(c.vt)])).toEqual([
      [0, 1_333_332],
      [0, 4_000_000],
      [1, 3_000_000],
    ]);
    // Within a shard the weights hold: b's four interleave 3:1 with a's.
    const claimed = await claimDue(db.pool, { limit: 8, owner: 'e', order: 'fair', partitions: EVEN });
    const order = claimed.jobs.map((j) => (j.tenantId === a ? 'a' : 'b')).join('');
    expect(order.slice(0, 4)).toBe('abbb');
  });

  it('makes a shard’s clock row by its first pass, and tells a held one from a missing one without waiting', async () => {
    const t = await tenantWithWeight('held', 1);
    await insertDueJobs(db.pool, { tenantId: t, target, partition: 3 }, 2);
    await db.pool.query("DELETE FROM fair_clocks WHERE `partition` = 1 AND lane = 'default'");
    expect(await tagDueJobs(db.pool, { lane: 'default', limit: 10, partitions: ODD })).toEqual({
      tagged: 2,
      busy: false,
    });
    const made = await rows("SELECT max_tag FROM fair_clocks WHERE `partition` = 1 AND lane = 'default'");
    expect(made.map((r) => Number(r.max_tag))).toEqual([1_000_000]);
    await insertDueJobs(db.pool, { tenantId: t, target, partition: 3 }, 1);
    const conn = await db.pool.getConnection();
    try {
      // Another tagger holds the odd shard's clock: this pass tags nothing, at once.
      await conn.query('BEGIN');
      await conn.query("SELECT vt FROM fair_clocks WHERE `partition` = 1 AND lane = 'default' FOR UPDATE");
      expect(await tagDueJobs(db.pool, { lane: 'default', limit: 10, partitions: ODD })).toEqual({
        tagged: 0,
        busy: true,
      });
      await conn.query('COMMIT');
    } finally {
      conn.release();
    }
    expect((await tagDueJobs(db.pool, { lane: 'default', limit: 10, partitions: ODD })).tagged).toBe(1);
  });

  // The drift of global shares from the weights (issue 32): two shards, each tagged with its own
  // clocks and claimed in turn in equal batches, as the executors' round robin over the groups
  // does. The global share of a tenant is what it got of both shards' claims together.
  async function globalShares(
    backlog: { tenant: string; partitions: number[]; jobs: number }[],
    claims: number,
  ): Promise<Map<string, number>> {
    for (const b of backlog) {
      const per = Math.ceil(b.jobs / b.partitions.length);
      for (const partition of b.partitions) {
        await insertDueJobs(db.pool, { tenantId: b.tenant, target, partition }, per);
      }
    }
    for (const group of [EVEN, ODD]) {
      for (;;) {
        const r = await tagDueJobs(db.pool, { lane: 'default', limit: 2000, partitions: group });
        if (r.tagged < 2000) break;
      }
    }
    const counts = new Map<string, number>();
    for (let n = 0; n < claims; n += 200) {
      const group = (n / 200) % 2 === 0 ? EVEN : ODD;
      const { jobs } = await claimDue(db.pool, { limit: 100, owner: 'e', order: 'fair', partitions: group });
      for (const j of jobs) counts.set(j.tenantId, (counts.get(j.tenantId) ?? 0) + 1);
      const other = await claimDue(db.pool, {
        limit: 100,
        owner: 'e',
        order: 'fair',
        partitions: group === EVEN ? ODD : EVEN,
      });
      for (const j of other.jobs) counts.set(j.tenantId, (counts.get(j.tenantId) ?? 0) + 1);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    return new Map([...counts].map(([t, c]) => [t, c / total]));
  }

  it('gives weights 1:2:5 their shares globally when each tenant’s backlog spreads over both shards', async () => {
    const [a, b, c] = [
      await tenantWithWeight('drift-a', 1),
      await tenantWithWeight('drift-b', 2),
      await tenantWithWeight('drift-c', 5),
    ];
    const shares = await globalShares(
      [a, b, c].map((tenant) => ({ tenant, partitions: [2, 4, 3, 5], jobs: 4000 })),
      4000,
    );
    const drift = [
      [a, 0.125],
      [b, 0.25],
      [c, 0.625],
    ].map(([t, want]) => (shares.get(t as string) ?? 0) - (want as number));
    console.log('drift, spread over both shards (points):', drift.map((d) => (100 * d).toFixed(2)).join(' '));
    for (const d of drift) expect(Math.abs(d)).toBeLessThan(0.01);
  });

  it('drifts from the weights when a tenant’s backlog sits on one shard of two: equal weights get 1/4 and 3/4', async () => {
    const [one, both] = [await tenantWithWeight('drift-one', 1), await tenantWithWeight('drift-both', 1)];
    const shares = await globalShares(
      [
        { tenant: one, partitions: [2, 4], jobs: 4000 },
        { tenant: both, partitions: [2, 4, 3, 5], jobs: 8000 },
      ],
      4000,
    );
    console.log(
      'shares, one tenant on one shard of two, equal weights:',
      (100 * (shares.get(one) ?? 0)).toFixed(2),
      (100 * (shares.get(both) ?? 0)).toFixed(2),
    );
    // Half of the even shard's claims, none of the odd one's: 25 points under its weight's 50.
    expect(Math.abs((shares.get(one) ?? 0) - 0.25)).toBeLessThan(0.01);
    expect(Math.abs((shares.get(both) ?? 0) - 0.75)).toBeLessThan(0.01);
  });

  it('drifts with weights too: 1:5 with the heavier tenant on one shard of two gets 42 % against its 83 %', async () => {
    const [light, heavy] = [
      await tenantWithWeight('drift-light', 1),
      await tenantWithWeight('drift-heavy', 5),
    ];
    const shares = await globalShares(
      [
        { tenant: light, partitions: [2, 4, 3, 5], jobs: 8000 },
        { tenant: heavy, partitions: [2, 4], jobs: 4000 },
      ],
      4000,
    );
    console.log(
      'shares, weights 1:5, the 5 on one shard of two:',
      (100 * (shares.get(light) ?? 0)).toFixed(2),
      (100 * (shares.get(heavy) ?? 0)).toFixed(2),
    );
    // Even shard: 1/6 and 5/6 of its half; odd shard: all of its half to light.
    expect(Math.abs((shares.get(heavy) ?? 0) - 5 / 12)).toBeLessThan(0.01);
    expect(Math.abs((shares.get(light) ?? 0) - 7 / 12)).toBeLessThan(0.01);
  });

  it('reads each keyed statement of the tagger by its index: the head, the tenants’ heads, the tags', async () => {
    const t = await tenantWithWeight('plans', 1);
    await insertDueJobs(db.pool, { tenantId: t, target, partition: 4 }, 50);
    await tagAll();
    await insertDueJobs(db.pool, { tenantId: t, target, partition: 4 }, 50);
    await db.pool.query('ANALYZE TABLE jobs');
    const head = await plan(
      'fair-head.sql',
      [0, 1, 2, 3].flatMap(() => ['default', EVEN]),
    );
    const priorities = planNodes(head.json, 'jobs');
    expect(priorities, head.json).toHaveLength(4);
    // A dive per priority, read in the index's order (MariaDB says range, MySQL ref).
    for (const node of priorities) expect(node, head.json).toMatchObject({ key: 'jobs_fair' });
    expect(head.filesort, head.json).toBe(false);
    const branch = jobsSql('fair-heads-select.sql');
    const [heads] = await db.pool.query<RowDataPacket[]>(
      `EXPLAIN FORMAT=JSON ${branch}\nUNION ALL\n${branch}`,
      [...['default', idToBin(t), EVEN, 0], ...['default', idToBin(t), EVEN, 0]],
    );
    const json = String(Object.values(heads[0]!)[0]);
    const dives = planNodes(json, 'jobs');
    expect(dives).toHaveLength(2);
    for (const node of dives) {
      expect(node).toMatchObject({ key: 'jobs_fair_heads', using_index: true });
      expect(node.used_key_parts).toEqual(expect.arrayContaining(['claim_lane', 'claim_tag', 'tenant_id']));
    }
    expect(planSorts(JSON.parse(json)), json).toBe(false);
    const ids = (await rows('SELECT id FROM jobs WHERE claim_tag IS NULL LIMIT 20')).map(
      (r) => r.id as Buffer,
    );
    const update = withSearch(
      loadSql(import.meta.url, '../src/jobs/fair-share/fair-tags-update.sql'),
      'id',
      ids.map((id, i) => [id, i] as const),
      [ids, EVEN],
    );
    // Keyed, the plan it has with its key a no-op (the ids by an index, not a scan).
    const planOf = async (sql: string) => {
      const [p] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${sql}`, update.params);
      return JSON.stringify(p.map((r) => [r.type, r.key]));
    };
    const keyed = await planOf(update.sql);
    expect(keyed).toBe(await planOf(update.sql.replace('`partition` IN (?)', '(`partition` IN (?) OR 1)')));
    expect(keyed).toMatch(/"range"/);
  });
});

/** Every table node named `table` in an EXPLAIN FORMAT=JSON text. */
function planNodes(json: string, table: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.table_name === table) out.push(o);
    for (const v of Object.values(o)) walk(v);
  };
  walk(JSON.parse(json));
  return out;
}
