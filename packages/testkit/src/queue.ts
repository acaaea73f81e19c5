import { randomBytes } from 'node:crypto';
import { type ClaimResult, type Lane, newId, type RetryPolicy, type Target } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { type ClaimArgs, claimJobs } from '@dsched/mysql/jobs/claim';
import { databaseNow, type Pool } from '@dsched/mysql/pool';

// Pending jobs straight into the queue, due on the database clock, for tests and benchmarks that
// exercise the executor without the scheduler.

export interface DueJobSeed {
  tenantId: string;
  target: Partial<Target> & { url: string };
  lane?: Lane;
  /** The jobs' partition (the shard key); their ids carry it. 0 unless given. */
  partition?: number;
  /** 0 critical … 3 low. */
  priority?: number;
  retry?: Partial<RetryPolicy>;
  /** Seconds from the database's now; due one second ago by default. */
  runInS?: number;
  /**
   * Give each job a trace context as its birth would (docs/tracing.md), sampled with this
   * probability; none when absent (a job made before traces were stored).
   */
  traceRatio?: number;
}

/** Inserts `n` pending jobs in one statement; returns their ids in insertion order. */
export async function insertDueJobs(pool: Pool, seed: DueJobSeed, n = 1): Promise<string[]> {
  const now = await databaseNow(pool);
  const runAt = new Date(now.getTime() + (seed.runInS ?? -1) * 1000);
  const retry: RetryPolicy = {
    maxAttempts: 3,
    initialBackoffMs: 100,
    maxBackoffMs: 1000,
    rules: [],
    ...seed.retry,
  };
  const target: Target = { method: 'POST', headers: {}, timeoutMs: 5000, ...seed.target };
  const partition = seed.partition ?? 0;
  const ids = Array.from({ length: n }, () => newId(Date.now(), partition));
  const rows = ids.map((id) => [
    idToBin(id),
    idToBin(seed.tenantId),
    null,
    `test:${id}`,
    'trigger',
    runAt,
    seed.priority ?? 2,
    seed.lane ?? 'default',
    'pending',
    0,
    retry.maxAttempts,
    runAt,
    JSON.stringify(target),
    JSON.stringify(retry),
    now,
    now,
    ...(seed.traceRatio === undefined
      ? []
      : [Buffer.concat([randomBytes(24), Buffer.from([Math.random() < seed.traceRatio ? 1 : 0])])]),
    partition,
  ]);
  await pool.query(
    `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
       attempt, max_attempts, run_at, target, retry, created_at, updated_at${
         seed.traceRatio === undefined ? '' : ', trace_context'
       }, \`partition\`) VALUES ?`,
    [rows],
  );
  return ids;
}

/**
 * Empties the queue between tests of one file: attempts, jobs, the tenants' slot holders and the
 * fair-share clocks (docs/fair-share.md), the tagger's walk of the tenants among them
 * (`heads_after`): each test's first full pass walks from the first tenant, as on a fresh lane.
 */
export async function clearJobs(pool: Pool): Promise<void> {
  await pool.query('DELETE FROM job_attempts');
  await pool.query('DELETE FROM jobs');
  await pool.query('UPDATE tenant_slots SET job_id = NULL, attempt = NULL, expires_at = NULL');
  await pool.query('DELETE FROM tenant_fair_clocks');
  await pool.query('UPDATE fair_clocks SET vt = 0, max_tag = 0, heads_after = NULL');
}

/**
 * `count` pending jobs numbered from `from`, of tenants `n mod tenants` (ids and tenant ids are n
 * and n mod tenants in 16 bytes), in one INSERT … SELECT over a digits table: the plan tests' and
 * benchmarks' large queues. `due`: due a minute ago at priority 2, else due in an hour at priority
 * 0; `tagged`: with start tags interleaving the tenants as a fair tagging would. At most 100,000.
 */
export async function insertTaggedBacklog(
  pool: Pool,
  o: { from: number; count: number; tenants: number; due?: boolean; tagged?: boolean },
): Promise<void> {
  const due = o.due ?? true;
  const tagged = o.tagged ?? due;
  if (o.count > 100_000) throw new Error('insertTaggedBacklog: at most 100,000 rows a call');
  await pool.query('CREATE TABLE IF NOT EXISTS plan_digits (d INT PRIMARY KEY)');
  await pool.query('INSERT IGNORE INTO plan_digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)');
  await pool.query(
    `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
       attempt, max_attempts, run_at, target, retry, created_at, updated_at, fair_tag, fair_tag_attempt, \`partition\`)
     SELECT UNHEX(LPAD(HEX(x.n), 32, '0')), UNHEX(LPAD(HEX(x.n MOD ?), 32, '0')), NULL, CONCAT('plan:', x.n),
            'trigger', NOW(3), ?, 'default', 'pending', 0, 3,
            NOW(3) + INTERVAL ? SECOND, '{}', '{}', NOW(3), NOW(3),
            CASE WHEN ? THEN (x.n DIV ?) * 1000000 + (x.n MOD ?) END, CASE WHEN ? THEN 0 END, x.n MOD 64
       FROM (SELECT ? + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS n
               FROM plan_digits a, plan_digits b, plan_digits c, plan_digits e, plan_digits f) x
      WHERE x.n < ?`,
    [
      o.tenants,
      due ? 2 : 0,
      due ? -60 : 3600,
      tagged,
      o.tenants,
      o.tenants,
      tagged,
      o.from,
      o.from + o.count,
    ],
  );
}

/**
 * A sentinel job: one pending job due now (or `runInS` from now) for the same tenant and lane as
 * what a test watches, and a wait until `called(id)` sees its call at the target. A claim pass that
 * took the sentinel also reached everything due before it, so once it returns, a test can assert
 * that a job due earlier was NOT called instead of sleeping "long enough" (which proves nothing on a
 * loaded machine, and wastes the time on an idle one).
 */
export async function awaitSentinelJob(
  pool: Pool,
  seed: DueJobSeed,
  called: (id: string) => boolean,
  timeoutMs = 30_000,
): Promise<string> {
  const [id] = await insertDueJobs(pool, { runInS: 0, ...seed });
  const deadline = Date.now() + timeoutMs;
  while (!called(id!)) {
    if (Date.now() > deadline)
      throw new Error(`the sentinel job ${id} was not called within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return id!;
}

/**
 * The executor's claim with the tests' defaults: the default lane, owner `executor-test`, a 60 s
 * claim lease, up to 100 jobs; `args` overrides any of them (deferMs, order, flowDeferMs, …).
 */
export function claimDue(pool: Pool, args: Partial<ClaimArgs> = {}): Promise<ClaimResult> {
  return claimJobs(pool, { lane: 'default', owner: 'executor-test', leaseSeconds: 60, limit: 100, ...args });
}
