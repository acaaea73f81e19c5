import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { insertCronTasks } from '@dsched/testkit/tasks';
import { startTcpProxy } from '@dsched/testkit/tcp-proxy';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEverySecondTasks, dbNow, leaseHolders, metric, startScheduler } from './scheduler-helpers.ts';

// Scheduler replicas as real processes sharing partitions by lease (invariant 6).

const TTL_MS = 3000;
const TICK_MS = 250;
const CHECK_MS = 500;
const db = useTestDatabase(import.meta.url);
let tenantId: string;
const running: RunningService[] = [];

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
});
beforeEach(async () => {
  for (const t of ['jobs', 'tasks', 'leases', 'occurrence_skips']) await db.pool.query(`DELETE FROM ${t}`);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')));
});

const env = (instance: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: db.url,
  INSTANCE_ID: instance,
  SCHEDULER_TICK_MS: String(TICK_MS),
  SCHEDULER_LEASE_TTL_MS: String(TTL_MS),
  SCHEDULER_LEASE_CHECK_MS: String(CHECK_MS),
  // No lookahead: a job's lateness is then exactly how late the scheduler was.
  SCHEDULER_LOOKAHEAD_S: '0',
  ...extra,
});

/** Tasks firing every second from the next whole second on. */
async function everySecondTasks(n: number, partitions = 64): Promise<{ ids: string[]; first: Date }> {
  const now = await dbNow(db.pool);
  const first = new Date(Math.ceil(now.getTime() / 1000) * 1000 + 1000);
  const ids = await insertCronTasks(
    db.pool,
    tenantId,
    n,
    () => ({ expression: '* * * * * *', nextFireAt: first }),
    {
      partitions,
    },
  );
  return { ids, first };
}

/** Waits until `n` tasks have their occurrence at `at` (every task of the test, made once each). */
async function jobsOfEveryTaskAt(at: Date, n: number): Promise<void> {
  await eventually(
    async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'scheduled' AND scheduled_for = ?",
        [at],
      );
      return Number(row!.n) >= n ? true : undefined;
    },
    30_000,
    `${n} jobs at ${at.toISOString()}`,
  );
}

/** Waits until a job of a task of `partition` exists at `at`. */
async function jobsOfPartitionAt(partition: number, at: Date): Promise<void> {
  await eventually(
    async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.`partition` = ? AND j.scheduled_for = ?',
        [partition, at],
      );
      return Number(row!.n) > 0 ? true : undefined;
    },
    30_000,
    `a job of partition ${partition} at ${at.toISOString()}`,
  );
}

describe('three replicas, one killed with SIGKILL', () => {
  it('another takes its partitions within TTL + tick; no occurrence is missing or duplicated', async () => {
    const replicas = await Promise.all(['r0', 'r1', 'r2'].map((r) => startScheduler(env(r))));
    running.push(...replicas);
    await eventually(
      async () => {
        const held = await leaseHolders(db.pool);
        const sizes = [...held.values()].map((p) => p.length).sort();
        return held.size === 3 && sizes.join() === '20,22,22' ? true : undefined;
      },
      30_000,
      'leases balanced over three replicas',
    );
    const { ids, first } = await everySecondTasks(300);
    // Two seconds of occurrences made for every task: the replicas are at work when one is killed.
    await jobsOfEveryTaskAt(new Date(first.getTime() + 2000), 300);

    const victim = replicas[0]!;
    const [before] = await db.pool.query<RowDataPacket[]>(
      "SELECT name, token FROM leases WHERE name LIKE 'scheduler.partition.%' AND holder LIKE 'r0#%'",
    );
    expect(before.length).toBeGreaterThan(0);
    victim.process.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    const killedAt = await dbNow(db.pool);

    // Poll until every partition r0 held has a new holder; the database clock times it.
    const names = before.map((r) => String(r.name));
    const takeover = await eventually(
      async () => {
        const [rows] = await db.pool.query<RowDataPacket[]>(
          'SELECT name, holder, token, NOW(3) AS db_now FROM leases WHERE name IN (?)',
          [names],
        );
        const moved = rows.filter((r) => r.holder && !String(r.holder).startsWith('r0#'));
        return moved.length === names.length ? rows : undefined;
      },
      30_000,
      'takeover of the killed replica’s partitions',
    );
    const takeoverMs = (takeover[0]!.db_now as Date).getTime() - killedAt.getTime();
    const oldTokens = new Map(before.map((r) => [String(r.name), BigInt(r.token)]));
    for (const r of takeover) expect(BigInt(r.token) > oldTokens.get(String(r.name))!).toBe(true);

    // The audit ends at an occurrence two seconds after the takeover that every task has: the new
    // holders caught up past the gap. (It ends before the replicas are asked to stop: a stopping
    // replica ticks no more, and on a loaded machine its stop can take seconds.)
    const end = new Date(Math.ceil((takeover[0]!.db_now as Date).getTime() / 1000) * 1000 + 2000);
    await jobsOfEveryTaskAt(end, 300);
    await Promise.all(replicas.slice(1).map((s) => s.stop()));

    const audit = await auditEverySecondTasks(db.pool, ids, first, end);
    const partitions = names.map((n) => Number(n.split('.').at(-1)));
    const [[late]] = await db.pool.query<RowDataPacket[]>(
      `SELECT MAX(TIMESTAMPDIFF(MICROSECOND, j.scheduled_for, j.created_at)) / 1000 AS ms
         FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.\`partition\` IN (?)`,
      [partitions],
    );
    // Measured, reported and documented (docs/leases.md); timing is not asserted on a shared machine.
    console.log(
      `takeover: ${takeoverMs} ms after SIGKILL (TTL ${TTL_MS} ms, lease check ${CHECK_MS} ms, tick ${TICK_MS} ms); ` +
        `worst lateness in the taken-over partitions: ${Number(late!.ms).toFixed(0)} ms; ` +
        `${audit.expected} occurrences checked`,
    );
    // Every second from the first occurrence to the end, before the kill and after the takeover.
    expect(audit.expected).toBe(300 * ((end.getTime() - first.getTime()) / 1000 + 1));
    expect(audit.missing).toEqual([]);
    expect(audit.duplicated).toEqual([]);
  });
});

describe('a stolen lease', () => {
  it('a replica whose lease token is bumped behind its back materialises nothing more for it', async () => {
    const solo = await startScheduler(env('solo', { SCHEDULER_PARTITIONS: '2' }));
    running.push(solo);
    const { ids } = await everySecondTasks(20, 2);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT id, `partition` FROM tasks WHERE id IN (?)', [
      ids.map(idToBin),
    ]);
    expect(new Set(rows.map((r) => Number(r.partition)))).toEqual(new Set([0, 1]));
    await eventually(async () =>
      (await metric(solo.url, 'dsched_scheduler_jobs_materialised_total')) > 40 ? true : undefined,
    );

    await db.pool.query(
      "UPDATE leases SET holder = 'thief', token = token + 1, expires_at = NOW(3) + INTERVAL 1 HOUR WHERE name = 'scheduler.partition.0001'",
    );
    const stolenAt = await dbNow(db.pool);
    // The replica noticed (its lease check runs every CHECK_MS), and the partition it kept had its
    // occurrences made two seconds past the theft: its ticks since made nothing of the stolen one.
    await eventually(async () =>
      (await metric(solo.url, 'dsched_scheduler_lease_renew_failures_total')) >= 1 ? true : undefined,
    );
    await jobsOfPartitionAt(0, new Date(Math.ceil(stolenAt.getTime() / 1000) * 1000 + 2000));

    const count = async (partition: number, after: Date) => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.`partition` = ? AND j.created_at >= ?',
        [partition, after],
      );
      return Number(row!.n);
    };
    expect(await count(1, stolenAt)).toBe(0);
    expect(await count(0, stolenAt)).toBeGreaterThan(0);
    expect(await metric(solo.url, 'dsched_scheduler_partitions_held')).toBe(1);
    expect(await metric(solo.url, 'dsched_scheduler_lease_renew_failures_total')).toBe(1);
    // Every scheduler metric of docs/metrics.md is served.
    const scrape = await (await fetch(`${solo.url}/metrics`)).text();
    for (const name of [
      'dsched_scheduler_tick_seconds',
      'dsched_scheduler_due_tasks',
      'dsched_scheduler_jobs_materialised_total',
      'dsched_scheduler_partitions_held',
      'dsched_scheduler_lease_renew_failures_total',
      'dsched_scheduler_lag_seconds',
      'dsched_scheduler_occurrences_skipped_total',
    ])
      expect(scrape).toContain(`# TYPE ${name} `);
  });
});

describe('losing MySQL', () => {
  it('a replica that cannot reach MySQL for a whole lease TTL exits non-zero', async () => {
    const u = new URL(db.url);
    const proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port) });
    try {
      u.port = String(proxy.port);
      const cut = await startScheduler(env('cut', { DATABASE_URL: u.toString() }));
      running.push(cut);
      await eventually(async () =>
        (await metric(cut.url, 'dsched_scheduler_partitions_held')) === 64 ? true : undefined,
      );
      proxy.blackhole();
      const code = await Promise.race([
        cut.exited,
        new Promise((r) => setTimeout(() => r('still running'), 30_000)),
      ]);
      expect(code).toBe(70);
      expect(cut.output()).toMatch(/no lease renewal for a whole TTL/);
    } finally {
      await proxy.close();
    }
  });
});
