import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { eventually } from '@dsched/testkit/services';
import { insertCronTasks } from '@dsched/testkit/tasks';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditEverySecondTasks, dbNow, metric, startScheduler } from './scheduler-helpers.ts';

// Invariant 1: the scheduler host's wall clock moved back and then forward by five minutes
// (libfaketime, Debian package `faketime`, installed by scripts/test.sh) changes nothing: every
// decision uses MySQL's clock, and the process paces itself on the monotonic clock, which
// libfaketime is told to leave alone.

const LIB_CANDIDATES = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
];
const LOOKAHEAD_S = 5;

const db = useTestDatabase(import.meta.url);
let dir: string;
let clockFile: string;
let faketimeEnv: Record<string, string>;

beforeAll(async () => {
  const lib = LIB_CANDIDATES.find((p) => existsSync(p));
  if (!lib)
    throw new Error('libfaketime not found: install the Debian package `faketime` (scripts/test.sh does)');
  dir = mkdtempSync(join(tmpdir(), 'dsched-faketime-'));
  clockFile = join(dir, 'faketime.rc');
  writeFileSync(clockFile, '+0\n');
  faketimeEnv = {
    LD_PRELOAD: lib,
    FAKETIME_TIMESTAMP_FILE: clockFile,
    FAKETIME_CACHE_DURATION: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/** What Date.now() says in a process under the same libfaketime setting, minus the real time. */
function fakeOffsetMs(): number {
  const out = execFileSync(process.execPath, ['-e', 'console.log(Date.now())'], {
    env: { ...faketimeEnv, PATH: process.env.PATH ?? '' },
  });
  return Number(String(out).trim()) - Date.now();
}

async function shiftHostClock(spec: string, expectedMs: number): Promise<void> {
  writeFileSync(clockFile, `${spec}\n`);
  // libfaketime rereads the file at most once a second; wait until a fresh process sees it.
  await eventually(async () => (Math.abs(fakeOffsetMs() - expectedMs) < 20_000 ? true : undefined), 10_000);
}

/**
 * Waits until every task has its jobs at `n` more fire times (2 s apart) after `since`; returns
 * the newest fire time made for every task.
 */
async function fireTimesMade(since: Date, n: number): Promise<Date> {
  const complete = async () => {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT scheduled_for FROM jobs WHERE kind = 'scheduled' GROUP BY scheduled_for
        HAVING COUNT(*) >= 50 ORDER BY scheduled_for DESC LIMIT 1`,
    );
    return rows.length === 0 ? 0 : (rows[0]!.scheduled_for as Date).getTime();
  };
  const at = await eventually(
    async () => {
      const last = await complete();
      return last >= since.getTime() + n * 2000 ? last : undefined;
    },
    60_000,
    `${n} more fire times made`,
  );
  return new Date(at);
}

it('moving the host clock back and forward five minutes makes no occurrence early, late or twice', async () => {
  expect(Math.abs(fakeOffsetMs())).toBeLessThan(20_000);
  const { id: tenantId } = await createTenantWithKey(db.pool);
  const now = await dbNow(db.pool);
  const first = new Date(Math.ceil(now.getTime() / 2000) * 2000 + 4000);
  const ids = await insertCronTasks(db.pool, tenantId, 50, () => ({
    expression: '*/2 * * * * *',
    nextFireAt: first,
  }));

  const scheduler = await startScheduler({
    DATABASE_URL: db.url,
    SCHEDULER_LOOKAHEAD_S: String(LOOKAHEAD_S),
    LOG_LEVEL: 'info',
    ...faketimeEnv,
  });
  // A witness under the same setting, so the test can see the shifts really reached a process.
  const witness = spawn(
    process.execPath,
    ['-e', 'setInterval(() => console.log(Date.now() - performance.now()), 250)'],
    {
      env: { ...faketimeEnv, PATH: process.env.PATH ?? '' },
    },
  );
  const witnessed: number[] = [];
  witness.stdout.on('data', (d: Buffer) => {
    for (const line of d.toString().trim().split('\n')) witnessed.push(Number(line));
  });
  try {
    await eventually(async () =>
      (await metric(scheduler.url, 'dsched_scheduler_jobs_materialised_total')) > 0 ? true : undefined,
    );
    // Under each clock the scheduler makes the jobs of three more fire times (six seconds of its
    // ticks) before the next shift: what it did under that clock is then in the audit.
    const before = await fireTimesMade(new Date(first.getTime() - 2000), 3);
    await shiftHostClock('-5m', -300_000);
    const back = await fireTimesMade(before, 3);
    await shiftHostClock('+5m', 300_000);
    const end = await fireTimesMade(back, 3);
    await scheduler.stop();

    const offsets = witnessed.map((t) => t - witnessed[0]!);
    expect(Math.min(...offsets)).toBeLessThan(-250_000);
    expect(Math.max(...offsets)).toBeGreaterThan(250_000);

    const audit = await auditEverySecondTasks(db.pool, ids, first, end, 2000);
    expect(audit.expected).toBeGreaterThanOrEqual(50 * 9);
    expect(audit.missing).toEqual([]);
    expect(audit.duplicated).toEqual([]);
    // Every job was made by the database clock, within the lookahead of its time: a scheduler
    // deciding by the host clock would have made them five minutes early, or stalled and been late.
    const [[span]] = await db.pool.query<RowDataPacket[]>(
      `SELECT MAX(TIMESTAMPDIFF(MICROSECOND, created_at, scheduled_for)) / 1e6 AS earliest,
              MAX(TIMESTAMPDIFF(MICROSECOND, scheduled_for, created_at)) / 1e6 AS latest
         FROM jobs WHERE kind = 'scheduled'`,
    );
    expect(Number(span!.earliest)).toBeLessThanOrEqual(LOOKAHEAD_S + 1);
    expect(Number(span!.latest)).toBeLessThan(60);
    expect(scheduler.output()).not.toMatch(/"level":"(error|fatal)"/);
  } finally {
    witness.kill('SIGKILL');
    await scheduler.stop('SIGKILL');
  }
});
