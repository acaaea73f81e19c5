import { insertTaggedBacklog } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PARTITIONS } from '../src/jobs/claim/claims.ts';
import { explainJobsStatement, jobsSql, planSorts, planTableNodes } from './plans.ts';

/** The claims keyed by one shard's group of partitions, of two shards (docs/sharding.md). */
const SHARD_OF_TWO = ALL_PARTITIONS.filter((p) => p % 2 === 0);

// The claim's plans at scale: 1,000,000 ready jobs across 10,000 tenants in one lane (tagged, as
// the fair claim sees them), 1,000,000 more due and not yet tagged across the same tenants (the
// tagger's backlog), 100,000 more not yet due and untagged at a higher priority. At this size the
// optimizer has real statistics to pick another plan with; the claims must stay covering range
// scans read in ORDER BY order (no filesort), or a locking read would lock every candidate, and
// the tagger's reads must not walk the backlog.

const db = useTestDatabase(import.meta.url);
const READY = 1_000_000;
const TENANTS = 10_000;

beforeAll(async () => {
  await db.pool.query('DELETE FROM jobs');
  // Ids and tenant ids are n and n mod TENANTS in 16 bytes, tags interleave the tenants as a fair
  // tagging would (insertTaggedBacklog), one statement per 100,000 rows.
  const insert = (from: number, count: number, due: boolean, tagged = due) =>
    insertTaggedBacklog(db.pool, { from, count, tenants: TENANTS, due, tagged });
  for (let base = 0; base < READY; base += 100_000) await insert(base, 100_000, true);
  for (let base = READY; base < 2 * READY; base += 100_000) await insert(base, 100_000, true, false);
  await insert(2 * READY, 100_000, false);
  await db.pool.query(
    `INSERT INTO tenants (id, name, signing_secret, created_at, updated_at)
     SELECT UNHEX(LPAD(HEX(x.n), 32, '0')), CONCAT('plan-', x.n), 'x', NOW(3), NOW(3)
       FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n
               FROM plan_digits a, plan_digits b, plan_digits c, plan_digits e) x`,
  );
  await db.pool.query('ANALYZE TABLE jobs');
}, 600_000);

const plan = (file: string, params: unknown[]) => explainJobsStatement(db.pool, file, params);

describe(`the claims at ${READY.toLocaleString('en')} ready rows across ${TENANTS.toLocaleString('en')} tenants`, () => {
  it('has them all', async () => {
    const [r] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(DISTINCT tenant_id) AS tenants, COUNT(*) AS n FROM jobs WHERE claim_tag IS NOT NULL',
    );
    expect(Number(r[0]!.n)).toBe(READY);
    expect(Number(r[0]!.tenants)).toBe(TENANTS);
    const [u] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(DISTINCT tenant_id) AS tenants, COUNT(*) AS n FROM jobs WHERE claim_tag IS NULL AND run_at < NOW(3)',
    );
    expect(Number(u[0]!.n)).toBe(READY);
    expect(Number(u[0]!.tenants)).toBe(TENANTS);
  });

  it('the fair claim is a covering range scan of jobs_fair, no filesort', async () => {
    const { table, json, filesort } = await plan('claim-select-fair.sql', ['default', 0, SHARD_OF_TWO, 100]);
    expect(table).toMatchObject({
      key: 'jobs_fair',
      access_type: 'range',
      used_key_parts: ['claim_lane', 'priority', 'claim_tag'],
      using_index: true,
    });
    expect(filesort, json).toBe(false);
  });

  it('the tagger’s read of untagged due jobs is a range scan of jobs_fair, no filesort', async () => {
    const { table, json, filesort } = await plan('fair-untagged-select.sql', [
      'default',
      0,
      SHARD_OF_TWO,
      1000,
    ]);
    expect(table).toMatchObject({ key: 'jobs_fair', access_type: 'range' });
    expect(filesort, json).toBe(false);
  });

  it('the tagger’s read of each tenant’s oldest untagged job is one index dive of jobs_fair_heads per tenant walked, no filesort', async () => {
    const { table } = await plan('fair-tenants-walk.sql', [Buffer.alloc(0), 500]);
    expect(table).toMatchObject({ key: 'PRIMARY', access_type: 'range', using_index: true });
    const [walked] = await db.pool.query<RowDataPacket[]>(jobsSql('fair-tenants-walk.sql'), [
      Buffer.alloc(0),
      500,
    ]);
    const branch = jobsSql('fair-heads-select.sql');
    const sql = walked.map(() => branch).join('\nUNION ALL\n');
    const params = walked.flatMap((t) => ['default', t.id, ALL_PARTITIONS, 0]);
    const [explained] = await db.pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`, params);
    const json = String(Object.values(explained[0]!)[0]);
    const dive = planTableNodes(JSON.parse(json)).get('jobs');
    expect(dive).toMatchObject({ key: 'jobs_fair_heads', using_index: true });
    expect(planSorts(JSON.parse(json)), json).toBe(false);
    // Run: the index entries it reads are a few per tenant walked, not the backlog's.
    const conn = await db.pool.getConnection();
    try {
      await conn.query('FLUSH STATUS');
      const [heads] = await conn.query<RowDataPacket[]>(sql, params);
      const [status] = await conn.query<RowDataPacket[]>("SHOW SESSION STATUS LIKE 'Handler_read%'");
      const reads = status.reduce((n, s) => n + Number(s.Value), 0);
      expect(heads).toHaveLength(500);
      expect(reads).toBeLessThanOrEqual(5 * 500);
    } finally {
      conn.release();
    }
  });

  it('the due-order claim (critical lane, fairness off) is still a covering range scan of jobs_claim, no filesort', async () => {
    const { table, json, filesort } = await plan('claim-select.sql', ['default', 0, SHARD_OF_TWO, 100]);
    expect(table).toMatchObject({
      key: 'jobs_claim',
      access_type: 'range',
      used_key_parts: ['claim_lane', 'priority', 'run_at'],
      using_index: true,
    });
    expect(filesort, json).toBe(false);
  });
});
