// pnpm bench scheduler-tick-parts
//
// Where the time of one scheduler batch of 1,000 due tasks goes, and how much of it is the
// storage engine's own work, which no change to the statements can remove:
//   1. the real batch (materialiseDueBatch, as the tick runs it), each statement timed on the
//      connection it runs on; what is left of the batch's wall time is the client's share
//      (planning, building the documents, the driver, round trips);
//   2. the storage floor: the same 1,000 job rows inserted into an empty copy of jobs from a
//      scratch table that already holds them (no parsing, no JSON, no join), and the same 1,000
//      tasks' next_fire_at moved by a primary-key list, each in a transaction rolled back;
//   3. the floor's own parts: the insert with only the primary key on jobs (what the eight
//      secondary indexes cost), and both writes on a narrow copy of the due columns (what the
//      width of the tasks row costs).
// The client's CPU over the batch is given beside its time. Medians of 15 repetitions after 2
// warm-ups. `--registered N` registers N tasks in all (the rest not due) to see which part grows
// with the table. Prints a table, then one JSON line.
import { cpus, loadavg } from 'node:os';
import { dueBatchDecision } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { Pool, PoolConnection } from '@dsched/mysql/pool';
import { materialiseDueBatch } from '@dsched/mysql/scheduler';
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

const DB = 'dsched_bench_scheduler_parts';
const DUE = 1000;
/** `--registered N`: tasks registered in all, the other N - 1,000 not due (default: only the due). */
const registeredArg = process.argv.indexOf('--registered');
const REGISTERED = registeredArg > 0 ? Number(process.argv[registeredArg + 1]) : DUE;
if (!Number.isInteger(REGISTERED) || REGISTERED < DUE) {
  console.error(`--registered must be a whole number of at least ${DUE}`);
  process.exit(2);
}
const REPEATS = 15;
const WARMUP = 2;
const ALL_PARTITIONS = Array.from({ length: 64 }, (_, i) => i);
const JOB_COLUMNS =
  'id, `partition`, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state, attempt, max_attempts, run_at, target, retry, created_at, updated_at';

await ensureStack();
const pool = await freshDatabase(DB);
const { id: tenant } = await createTenantWithKey(pool, 'bench');
const ids = await loadTasks(pool, tenant, DUE, (i) => mixedTask(i, new Date(Date.now() - 1000)), {
  partitions: 64,
});
if (REGISTERED > DUE) await loadIdleTasks(pool, tenant, REGISTERED - DUE, DUE, 64);
if (REGISTERED > DUE) await pool.query('ANALYZE TABLE tasks');
const taskIds = ids.map(idToBin);

/** Which statement a query is, by its first words. */
function statementOf(sql: string): string | null {
  const s = sql
    .replace(/--[^\n]*\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.startsWith('SELECT id, schedule')) return 'due read';
  if (s.startsWith('INSERT IGNORE INTO jobs')) return 'job insert';
  if (s.startsWith('UPDATE tasks')) return 'advance';
  if (s.startsWith('SELECT NOW(3)')) return 'clock';
  return null;
}

// Every connection the batch takes from the pool times its statements and its commit (wrapped
// once, in place: the pool hands the same connections out again).
const timings = new Map<string, number[]>();
const record = (name: string, ms: number) => timings.set(name, [...(timings.get(name) ?? []), ms]);
const wrapped = new WeakSet<PoolConnection>();
function timeStatements(conn: PoolConnection): PoolConnection {
  if (wrapped.has(conn)) return conn;
  wrapped.add(conn);
  const query = conn.query.bind(conn);
  const commit = conn.commit.bind(conn);
  conn.query = (async (...args: Parameters<PoolConnection['query']>) => {
    const started = performance.now();
    try {
      return await query(...args);
    } finally {
      const name = typeof args[0] === 'string' ? statementOf(args[0]) : null;
      if (name) record(name, performance.now() - started);
    }
  }) as PoolConnection['query'];
  conn.commit = async () => {
    const started = performance.now();
    try {
      return await commit();
    } finally {
      record('commit', performance.now() - started);
    }
  };
  return conn;
}
const take = pool.getConnection.bind(pool);
const timedPool = Object.assign(Object.create(pool) as Pool, {
  getConnection: async () => timeStatements(await take()),
});

async function makeDue(): Promise<void> {
  await clearOfFireBoundary(pool, 0);
  await pool.query('DELETE FROM jobs');
  await pool.query('UPDATE tasks SET next_fire_at = NOW(3) - INTERVAL 1 SECOND WHERE id IN (?)', [taskIds]);
}

// 1. The real batch.
const batches: number[] = [];
// The client's CPU (this process's, every thread) over each batch: its share in time, what is left
// of the wall time after the statements, moves with the machine's load; its CPU much less.
const clientCpu: number[] = [];
for (let i = 0; i < REPEATS + WARMUP; i++) {
  await makeDue();
  if (i === WARMUP) timings.clear();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const r = await materialiseDueBatch(timedPool, {
    scope: { unleased: ALL_PARTITIONS },
    lookaheadMs: 0,
    limit: DUE,
    decide: dueBatchDecision({
      maxJobs: 5 * DUE,
      plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
    }),
  });
  if (r.jobsInserted !== DUE) throw new Error(`the batch made ${r.jobsInserted} jobs, expected ${DUE}`);
  if (i >= WARMUP) {
    batches.push(performance.now() - started);
    const cpu = process.cpuUsage(cpu0);
    clientCpu.push((cpu.user + cpu.system) / 1000);
  }
}
const part = (name: string) => median(timings.get(name) ?? [0]);
const statements = ['clock', 'due read', 'job insert', 'advance', 'commit'].reduce((s, n) => s + part(n), 0);

// 2 and 3. The storage floor, on the jobs the last batch made (kept in a scratch table).
const conn = await take();
await conn.query('CREATE TABLE scratch_jobs LIKE jobs');
await conn.query(`INSERT INTO scratch_jobs (${JOB_COLUMNS}) SELECT ${JOB_COLUMNS} FROM jobs`);
await conn.query(
  `CREATE TABLE scratch_due (id BINARY(16) NOT NULL, state VARCHAR(16) CHARACTER SET ascii NOT NULL,
     priority TINYINT UNSIGNED NOT NULL, \`partition\` SMALLINT UNSIGNED NOT NULL, next_fire_at DATETIME(3) NULL,
     PRIMARY KEY (id), KEY scratch_due_order (state, priority, \`partition\`, next_fire_at))`,
);
await conn.query('INSERT INTO scratch_due SELECT id, state, priority, `partition`, next_fire_at FROM tasks');
// Both floors insert into an empty table of their own: the jobs table holds the delete-marked rows
// of the batches above until purge removes them.
await conn.query('CREATE TABLE scratch_jobs_all LIKE jobs');
await conn.query('CREATE TABLE scratch_jobs_pk LIKE jobs');
await conn.query(
  `ALTER TABLE scratch_jobs_pk DROP INDEX jobs_occurrence, DROP INDEX jobs_by_state_lease, DROP INDEX jobs_by_task,
     DROP INDEX jobs_by_tenant_time, DROP INDEX jobs_claim, DROP INDEX jobs_finished, DROP INDEX jobs_deadline,
     DROP INDEX jobs_by_tenant_finished`,
);

/** Median time of a statement in a transaction that is rolled back. */
async function rolledBack(sql: string, values: unknown[] = []): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < REPEATS + WARMUP; i++) {
    await conn.query('BEGIN');
    const started = performance.now();
    await conn.query(sql, values);
    if (i >= WARMUP) times.push(performance.now() - started);
    await conn.query('ROLLBACK');
  }
  return median(times);
}
const floorInsert = await rolledBack(
  `INSERT INTO scratch_jobs_all (${JOB_COLUMNS}) SELECT ${JOB_COLUMNS} FROM scratch_jobs`,
);
const floorInsertPk = await rolledBack(
  `INSERT INTO scratch_jobs_pk (${JOB_COLUMNS}) SELECT ${JOB_COLUMNS} FROM scratch_jobs`,
);
const floorAdvance = await rolledBack(
  'UPDATE tasks SET next_fire_at = next_fire_at + INTERVAL 1 DAY WHERE id IN (?)',
  [taskIds],
);
const floorAdvanceNarrow = await rolledBack(
  'UPDATE scratch_due SET next_fire_at = next_fire_at + INTERVAL 1 DAY WHERE id IN (?)',
  [taskIds],
);
conn.release();
await dropDatabase(pool, DB);
await pool.end();

const batch = median(batches);
const metrics: Record<string, number> = {
  registered: REGISTERED,
  batch1000_ms: batch,
  due_read_ms: part('due read'),
  job_insert_ms: part('job insert'),
  advance_ms: part('advance'),
  commit_ms: part('commit'),
  clock_ms: part('clock'),
  client_ms: batch - statements,
  client_cpu_ms: median(clientCpu),
  floor_job_insert_ms: floorInsert,
  floor_job_insert_pk_only_ms: floorInsertPk,
  floor_advance_ms: floorAdvance,
  floor_advance_narrow_ms: floorAdvanceNarrow,
  floor_batch_ms: part('due read') + floorInsert + floorAdvance + part('commit'),
};
for (const k of Object.keys(metrics)) metrics[k] = Number(metrics[k]!.toFixed(2));

const rows: [string, number][] = [
  [`one batch of ${DUE} due tasks (wall time)`, metrics.batch1000_ms!],
  ['  due read (locking range read of tasks_due)', metrics.due_read_ms!],
  ['  job insert (INSERT … SELECT from literal rows joined to tasks)', metrics.job_insert_ms!],
  ['  advance of next_fire_at (UPDATE by id, CASE per task)', metrics.advance_ms!],
  ['  commit', metrics.commit_ms!],
  ['  clock', metrics.clock_ms!],
  ['  client: planning, documents, driver, round trips', metrics.client_ms!],
  ['  client CPU (this process, all its threads)', metrics.client_cpu_ms!],
  [`storage floor: ${DUE} job rows inserted from a table`, metrics.floor_job_insert_ms!],
  ['  the same into jobs with only its primary key', metrics.floor_job_insert_pk_only_ms!],
  [`storage floor: ${DUE} next_fire_at moved by primary-key list`, metrics.floor_advance_ms!],
  ['  the same on a narrow table of the due columns', metrics.floor_advance_narrow_ms!],
  ['storage floor of a batch: due read + both floors + commit', metrics.floor_batch_ms!],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(
  `\nscheduler-tick-parts, ${REGISTERED.toLocaleString('en')} registered, on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()[0]!.toFixed(2)}`,
);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v.toFixed(2)} ms`);
console.log(JSON.stringify({ bench: 'scheduler-tick-parts', metrics }));
