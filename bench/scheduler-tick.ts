// pnpm bench scheduler-tick [--quick] [--calendar]
//
// The scheduler's tick against the local MariaDB, through the real adapter and core (the same
// SchedulerTick the service runs, holding every partition lease, so the in-transaction lease
// check is part of what is timed):
//   1. 30,000 cron tasks all due at the same second: time to materialise all of them, and
//      whether every job row exists before its scheduled_for (lookahead): materialise30k_s;
//   2. one tick materialising 1,000 due tasks (median of repeated ticks): tick1000_ms_median;
//   3. the same 1,000-due tick with 1k, 10k, 100k and 1M tasks registered: tick_ms_at_*, with
//      the rows the due read examines (MariaDB ANALYZE), which must stay 1,000.
// With --calendar, cases 1 and 2 run twice, alternated: as above, and with every task's schedule
// carrying a business calendar (public holidays of one of eight regions, weekends, listed dates,
// skip or a move to a business day): calendar30k_ratio and calendar_tick1000_ratio say what the
// calendar check costs the tick (the goal: within 1.2×). Case 3 is left out then.
// Prints a table, then one JSON line {"bench": "scheduler-tick", "metrics": {...}}.
import { cpus, loadavg } from 'node:os';
import { compileCalendar, dayOf, type ScheduleCalendar } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { createRegistry } from '@dsched/runtime';
import { mysqlDueMaterialiser, mysqlPartitionLeases } from '../services/scheduler/src/adapters/mysql.ts';
import { PartitionLeaseKeeper } from '../services/scheduler/src/core/partition-leases.ts';
import { SchedulerTick } from '../services/scheduler/src/core/tick.ts';
import { SchedulerMetrics } from '../services/scheduler/src/metrics.ts';
import {
  clearOfFireBoundary,
  createTenantWithKey,
  dropDatabase,
  ensureStack,
  freshDatabase,
  loadIdleTasks,
  loadTasks,
  median,
  mixedTask,
} from './_scheduler-fixtures.ts';

const QUICK = process.argv.includes('--quick');
const CALENDAR = process.argv.includes('--calendar');
const DB = 'dsched_bench_scheduler_tick';
const PARTITIONS = 64;
const DUE = 1000;
const REPEATS = QUICK ? 7 : 21;
const SCALES = CALENDAR ? [1_000] : QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000];

/** Calendars of the kinds tenants use: a region's holidays, weekends, listed dates, every onExcluded. */
const CALENDARS: ScheduleCalendar[] = [
  { holidays: 'DE-BE', weekends: true, onExcluded: 'next_business_day' },
  { holidays: 'US', weekends: true, onExcluded: 'previous_business_day' },
  { holidays: 'GB-ENG', onExcluded: 'skip' },
  { holidays: 'FR', weekends: true, dates: ['2031-01-02', '2031-05-09'], onExcluded: 'next_business_day' },
  { holidays: 'JP', onExcluded: 'next_business_day' },
  { holidays: 'US-CA', weekends: true, onExcluded: 'skip' },
  {
    weekends: true,
    dates: Array.from({ length: 20 }, (_, i) => `2030-${String((i % 12) + 1).padStart(2, '0')}-1${i % 10}`),
    onExcluded: 'previous_business_day',
  },
  { holidays: 'NL', onExcluded: 'previous_business_day' },
];

/** The calendars that let an occurrence at `at` (UTC) fire where it is: the peak must stay whole. */
function calendarsKeeping(at: Date): ScheduleCalendar[] {
  const kept = CALENDARS.filter((c) => {
    const compiled = compileCalendar(c, 'UTC');
    return !compiled.isExcluded(dayOf(compiled, at.getTime()));
  });
  if (kept.length === 0) throw new Error(`every calendar of the bench excludes ${at.toISOString()}`);
  return kept;
}

await ensureStack();
const pool = await freshDatabase(DB);
const { id: tenant } = await createTenantWithKey(pool, 'bench');

const metrics = new SchedulerMetrics(createRegistry('bench'));
const keeper = new PartitionLeaseKeeper({
  store: mysqlPartitionLeases(pool),
  metrics,
  holder: 'bench',
  partitions: PARTITIONS,
  ttlMs: 3_600_000,
});
await keeper.start();
if (keeper.held().length !== PARTITIONS) throw new Error('the bench must hold every partition');

function makeTick(lookaheadS: number): SchedulerTick {
  return new SchedulerTick({
    materialise: mysqlDueMaterialiser(pool, {
      lookaheadMs: lookaheadS * 1000,
      batchSize: 1000,
    }),
    limits: { maxJobs: 5000, plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 } },
    scope: () => ({ holder: keeper.holder, held: keeper.held() }),
    shardOf: () => '-', // one primary: one group
    onLost: (p) => {
      throw new Error(`bench lost partitions ${p.join(',')}`);
    },
    metrics,
    maxBatchesPerTick: 1000,
  });
}

const rows: [string, string][] = [];
const metricsOut: Record<string, number> = {};

// 1 (first, while the table holds nothing else): 30,000 cron tasks all due at the same second,
// lookahead 10 s. The tasks are loaded once; each run gives them a fire time 15 s ahead only
// after loading, so set-up time never eats into the lookahead.
const peakIds = (
  await loadTasks(
    pool,
    tenant,
    30_000,
    () => ({ expression: '0 0 1 1 *', nextFireAt: new Date(Date.now() + 86_400_000) }),
    {
      partitions: PARTITIONS,
    },
  )
).map(idToBin);
await pool.query("UPDATE tasks SET state = 'paused' WHERE id IN (?)", [peakIds]);

async function materialise30k(
  withCalendars = false,
): Promise<{ seconds: number; early: boolean; late: number }> {
  await pool.query('DELETE FROM jobs');
  const [[clock]] = (await pool.query('SELECT NOW(3) AS now')) as unknown as [[{ now: Date }]];
  const fireAt = new Date(Math.ceil((clock.now.getTime() + 15_000) / 1000) * 1000);
  const expression = `${fireAt.getUTCSeconds()} ${fireAt.getUTCMinutes()} ${fireAt.getUTCHours()} * * *`;
  const schedule = (calendar?: ScheduleCalendar) =>
    JSON.stringify({
      type: 'cron',
      expression,
      timezone: 'UTC',
      dst: { repeated: 'first', skipped: 'shift' },
      ...(calendar ? { calendar } : {}),
    });
  // With calendars, the tasks take them round-robin (one statement per calendar).
  const calendars = withCalendars ? calendarsKeeping(fireAt) : [undefined];
  for (let c = 0; c < calendars.length; c++) {
    const ids = peakIds.filter((_, i) => i % calendars.length === c);
    await pool.query("UPDATE tasks SET schedule = ?, next_fire_at = ?, state = 'active' WHERE id IN (?)", [
      schedule(calendars[c]),
      fireAt,
      ids,
    ]);
  }
  const tick = makeTick(10);
  let first = 0;
  let done = 0;
  let made = 0;
  while (made < 30_000) {
    const before = performance.now();
    await tick.runOnce();
    const [[row]] = (await pool.query('SELECT COUNT(*) AS n FROM jobs')) as unknown as [[{ n: number }]];
    if (Number(row.n) > made && first === 0) first = before;
    made = Number(row.n);
    done = performance.now();
    if (made < 30_000) await new Promise((r) => setTimeout(r, 200));
  }
  const [[check]] = (await pool.query(
    'SELECT SUM(created_at >= scheduled_for) AS late FROM jobs',
  )) as unknown as [[{ late: string }]];
  await pool.query("UPDATE tasks SET state = 'paused' WHERE id IN (?)", [peakIds]);
  return { seconds: (done - first) / 1000, early: Number(check.late) === 0, late: Number(check.late) };
}
const peaks: number[] = [];
const calendarPeaks: number[] = [];
let allEarly = true;
for (let i = 0; i < (QUICK ? 1 : CALENDAR ? 5 : 3); i++) {
  // Alternated, so a drift of the machine over the run falls on both.
  for (const withCalendars of CALENDAR ? [i % 2 === 1, i % 2 === 0] : [false]) {
    const r = await materialise30k(withCalendars);
    (withCalendars ? calendarPeaks : peaks).push(r.seconds);
    allEarly &&= r.early;
    if (!r.early) rows.push([`  30k run ${i + 1}: jobs created at or after scheduled_for`, String(r.late)]);
  }
}
await pool.query('DELETE FROM jobs');
await pool.query('DELETE FROM tasks WHERE id IN (?)', [peakIds]);
metricsOut.materialise30k_s = Number(median(peaks).toFixed(2));
metricsOut.materialise30k_all_before_scheduled_for = allEarly ? 1 : 0;
rows.push([
  `materialise 30,000 due at one second (median of ${peaks.length})`,
  `${median(peaks).toFixed(2)} s`,
]);
if (CALENDAR) {
  const ratio = median(calendarPeaks) / median(peaks);
  metricsOut.calendar30k_s = Number(median(calendarPeaks).toFixed(2));
  metricsOut.calendar30k_ratio = Number(ratio.toFixed(3));
  rows.push([
    `  the same 30,000 with calendars (median of ${calendarPeaks.length})`,
    `${median(calendarPeaks).toFixed(2)} s  (${ratio.toFixed(2)}× without; runs: ${peaks.map((p) => p.toFixed(2)).join(' ')} | ${calendarPeaks.map((p) => p.toFixed(2)).join(' ')})`,
  ]);
}
rows.push(['  every job row existed before its scheduled_for', allEarly ? 'yes' : 'NO']);

// The 1,000 due tasks: a mix of zones, expressions and priorities, one occurrence each per tick.
const dueIds = await loadTasks(pool, tenant, DUE, (i) => mixedTask(i, new Date(Date.now() - 1000)), {
  partitions: PARTITIONS,
});

async function makeDue(): Promise<void> {
  await clearOfFireBoundary(pool, 10);
  await pool.query('DELETE FROM jobs');
  await pool.query('UPDATE tasks SET next_fire_at = NOW(3) - INTERVAL 1 SECOND WHERE id IN (?)', [
    dueIds.map(idToBin),
  ]);
}

/** Median wall time of one tick over REPEATS ticks, each materialising the 1,000 due tasks. */
async function tick1000(): Promise<number> {
  const tick = makeTick(10);
  const times: number[] = [];
  for (let i = 0; i < REPEATS + 2; i++) {
    await makeDue();
    const started = performance.now();
    await tick.runOnce();
    const ms = performance.now() - started;
    const [[row]] = (await pool.query('SELECT COUNT(*) AS n FROM jobs')) as unknown as [[{ n: number }]];
    if (Number(row.n) !== DUE) throw new Error(`tick made ${row.n} jobs, expected ${DUE}`);
    if (i >= 2) times.push(ms); // two warm-up ticks
  }
  return median(times);
}

/**
 * Rows the due read examines with the 1,000 due (MariaDB ANALYZE runs it and counts): it must stay
 * 1,000 whatever the number of registered tasks, the index being read as a range, never scanned.
 */
async function dueReadRowsExamined(): Promise<number | null> {
  await makeDue();
  const partitions = Array.from({ length: PARTITIONS }, (_, i) => i);
  try {
    const [[row]] = (await pool.query(
      `ANALYZE FORMAT=JSON SELECT id FROM tasks
        WHERE state = 'active' AND priority IN (0, 1, 2, 3) AND \`partition\` IN (?)
          AND next_fire_at <= NOW(3) + INTERVAL 10 SECOND AND (overlap_policy = 'allow' OR next_fire_at <= NOW(3))
        ORDER BY priority, \`partition\`, next_fire_at, id LIMIT 1001`,
      [partitions],
    )) as unknown as [[Record<string, string>]];
    // The tasks table's node, wherever the plan nests it (nested_loop, filesort, ...).
    const find = (node: unknown): number | null => {
      if (node === null || typeof node !== 'object') return null;
      const o = node as Record<string, unknown>;
      if (o.table_name === 'tasks' && typeof o.r_rows === 'number') return o.r_rows;
      for (const v of Object.values(o)) {
        const found = find(v);
        if (found !== null) return found;
      }
      return null;
    };
    const plan = JSON.parse(Object.values(row)[0]!) as unknown;
    const examined = find(plan);
    if (examined === null)
      console.error('ANALYZE plan without rows examined:', JSON.stringify(plan).slice(0, 600));
    return examined;
  } catch (err) {
    console.error('ANALYZE failed (not MariaDB?):', (err as Error).message);
    return null;
  }
}

// 2 and 3: the tick at growing registered counts (the first level is the 1k headline).
let registered = DUE;
for (const scale of SCALES) {
  const started = performance.now();
  if (scale > registered) await loadIdleTasks(pool, tenant, scale - registered, registered, PARTITIONS);
  const loadS = (performance.now() - started) / 1000;
  registered = scale;
  await pool.query('ANALYZE TABLE tasks');
  const ms = await tick1000();
  const key = `tick_ms_at_${scale >= 1_000_000 ? `${scale / 1_000_000}m` : `${scale / 1000}k`}`;
  metricsOut[key] = Number(ms.toFixed(2));
  const examined = await dueReadRowsExamined();
  rows.push([
    `tick, ${DUE} due of ${scale.toLocaleString('en')} registered (median of ${REPEATS})`,
    `${ms.toFixed(2)} ms${examined === null ? '' : `  (due read examined ${examined} rows)`}`,
  ]);
  if (loadS > 1) rows.push([`  (bulk load to ${scale.toLocaleString('en')} tasks)`, `${loadS.toFixed(1)} s`]);
  if (scale === SCALES[0]) metricsOut.tick1000_ms_median = Number(ms.toFixed(2));
}

// --calendar: the 1,000-due tick with and without calendars on the mix, alternated.
if (CALENDAR) {
  const [read] = (await pool.query('SELECT id, schedule FROM tasks WHERE id IN (?)', [
    dueIds.map(idToBin),
  ])) as unknown as [{ id: Buffer; schedule: unknown }[]];
  const parsed = read.map((r) => ({
    id: r.id,
    schedule: (typeof r.schedule === 'string' ? JSON.parse(r.schedule) : r.schedule) as Record<
      string,
      unknown
    >,
  }));
  const setSchedules = async (withCalendars: boolean) => {
    for (const [i, r] of parsed.entries()) {
      const schedule = withCalendars
        ? { ...r.schedule, calendar: CALENDARS[i % CALENDARS.length] }
        : r.schedule;
      await pool.query('UPDATE tasks SET schedule = ? WHERE id = ?', [JSON.stringify(schedule), r.id]);
    }
  };
  const plainMs: number[] = [];
  const calendarMs: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    for (const withCalendars of [i % 2 === 1, i % 2 === 0]) {
      await setSchedules(withCalendars);
      (withCalendars ? calendarMs : plainMs).push(await tick1000());
    }
  }
  const ratio = median(calendarMs) / median(plainMs);
  metricsOut.calendar_tick1000_ms = Number(median(calendarMs).toFixed(2));
  metricsOut.calendar_tick1000_ratio = Number(ratio.toFixed(3));
  rows.push([
    `tick, ${DUE} due, every task with a calendar (median of ${calendarMs.length} medians)`,
    `${median(calendarMs).toFixed(2)} ms  (${ratio.toFixed(2)}× without: ${median(plainMs).toFixed(2)} ms)`,
  ]);
}

await keeper.stop();
await dropDatabase(pool, DB);
await pool.end();

const width = Math.max(...rows.map(([k]) => k.length));
console.log(
  `\nscheduler-tick on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]!.toFixed(2)}`,
);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
console.log(JSON.stringify({ bench: 'scheduler-tick', metrics: metricsOut }));
