// pnpm bench executor [--jobs N] [--runs R] [--executors 1,2,4] [--warmup W] [--cpu-prof DIR]
//                     [--idle S] [--env NAME=VALUE,...] [--trace-ratio R] [--retry-first]
//
// --retry-first: the target answers 500 to each job's first attempt and 200 to its second, so
// every job is retried once (backoff 100 ms): half the outcomes are retries, written by
// outcome-apply.sql, the statement whose rows differ per job (the other half succeed alike).
// --trace-ratio: the jobs carry a trace context as their birth would give them, sampled with
// probability R (docs/tracing.md); with --env OTEL_EXPORTER_OTLP_ENDPOINT=… the executors record and
// export the sampled jobs' spans. Absent: jobs without one (as before traces were stored).
// --idle: before each measured run, S seconds with nothing due: the CPU per second an idle
// executor costs (its own and its MariaDB connections'), which a peak's tail pays too.
// --warmup: W jobs drained (not measured, then deleted) by each run's fresh executors before the
// measured N, so the figures are of processes whose job path the JIT has compiled, as in a
// long-running fleet; 0 (default) measures from a cold start, compilation included.
// --executors: the configurations to run (process counts, comma-separated). --cpu-prof: start each
// executor with node's --cpu-prof, writing one .cpuprofile per process into DIR at its exit
// (profiling slows the process: read CPU per job from a run without it). --env: settings given to
// every executor on top of the bench's own (e.g. EXECUTOR_FAIR_SHARE=false), to measure a lever.
//
// Jobs per second from `pending` to a recorded 2xx, with 1, 2 and 4 executor processes, against
// a loopback target that answers at once; CPU per job of the executors (and of MariaDB, from
// /proc); rows claimed per claim query. Each configuration runs R times on N fresh jobs; the
// table shows medians, and the last line is the JSON the conventions ask for.
//
// Method: executors start and idle first; the jobs are inserted in one statement, due at once;
// the clock runs on the database from just before the insert to the last outcome's finished_at.
// CPU is utime+stime of the processes over the same window. Claims per query come from the
// executors' dsched_executor_claim_batch_size histogram (deltas over the window, empty polls
// included).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { createPool, databaseNow, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { MYSQL_SERVER_URL } from '@dsched/testkit/mysql';
import { REPO_ROOT } from '@dsched/testkit/names';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type RunningService, startService } from '@dsched/testkit/services';
import { connectionThreadCpuMs, cpuMs, mysqlServerPid, threadCpuMs } from './_cpu.ts';
import { ensureStack, machine, median } from './_stack.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const JOBS = option('jobs', 2000);
const WARMUP = option('warmup', 0);
const IDLE_S = option('idle', 0);
const RUNS = option('runs', 3);
const EXECUTORS = (args.includes('--executors') ? args[args.indexOf('--executors') + 1]! : '1,2,4')
  .split(',')
  .map(Number);
const TRACE_RATIO = args.includes('--trace-ratio') ? option('trace-ratio', 0) : undefined;
const RETRY_FIRST = args.includes('--retry-first');
const CPU_PROF_DIR = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1]! : undefined;
const EXTRA_ENV: Record<string, string> = Object.fromEntries(
  (args.includes('--env') ? args[args.indexOf('--env') + 1]!.split(',') : []).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--env: ${pair} is not NAME=VALUE`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
async function claimHistogram(service: RunningService): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const read = (suffix: string) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(`dsched_executor_claim_batch_size_${suffix}{`))
      .reduce((s, l) => s + Number(l.split(' ').pop()), 0);
  return { sum: read('sum'), count: read('count') };
}

interface RunResult {
  jobsPerS: number;
  executorCpuMsPerJob: number;
  /** Of it, the main (JavaScript) thread's; the rest is V8's compiler and GC threads and libuv's. */
  executorMainCpuMsPerJob: number;
  mysqlCpuMsPerJob: number;
  /** The CPU of the executors' own MariaDB connection threads per job (see connectionThreadCpuMs). */
  mysqlConnectionsCpuMsPerJob: number;
  executorCores: number;
  mysqlCores: number;
  rowsPerClaim: number;
  /** With --idle: CPU ms per second of the idle executors, and of their MariaDB connections. */
  idle?: { executorMsPerS: number; connectionsMsPerS: number };
}

async function idleCpu(
  db: Bench,
  pids: number[],
  mysqlPid: number | null,
  seconds: number,
): Promise<{ executorMsPerS: number; connectionsMsPerS: number }> {
  const sum = () => pids.map(cpuMs).reduce((a, b) => a + b, 0);
  const threads0 = mysqlPid ? threadCpuMs(mysqlPid) : new Map<number, number>();
  const cpu0 = sum();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const executorMs = sum() - cpu0;
  const connectionsMs = mysqlPid
    ? await connectionThreadCpuMs(db.pool, mysqlPid, db.name, threads0)
    : Number.NaN;
  return { executorMsPerS: executorMs / seconds, connectionsMsPerS: connectionsMs / seconds };
}

async function run(db: Bench, tenantId: string, targetUrl: string, executors: number): Promise<RunResult> {
  await db.pool.query('DELETE FROM job_attempts');
  await db.pool.query('DELETE FROM jobs');
  const services = await Promise.all(
    Array.from({ length: executors }, (_, i) =>
      startService(
        'executor',
        {
          DATABASE_URL: db.url,
          INSTANCE_ID: `bench-${i}`,
          EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
          LOG_LEVEL: 'warn',
          ...EXTRA_ENV,
        },
        CPU_PROF_DIR ? { cpuProfDir: CPU_PROF_DIR } : {},
      ),
    ),
  );
  try {
    if (WARMUP > 0) {
      await insertDueJobs(
        db.pool,
        {
          tenantId,
          target: { url: `${targetUrl}/bench`, timeoutMs: 10_000 },
          ...(TRACE_RATIO === undefined ? {} : { traceRatio: TRACE_RATIO }),
        },
        WARMUP,
      );
      await waitSucceeded(db.pool, WARMUP);
      await db.pool.query('DELETE FROM job_attempts');
      await db.pool.query('DELETE FROM jobs');
    }
    const mysqlPid = mysqlServerPid();
    const pids = services.map((s) => s.process.pid!);
    const idle = IDLE_S > 0 ? await idleCpu(db, pids, mysqlPid, IDLE_S) : undefined;
    const before = await Promise.all(services.map(claimHistogram));
    const cpu0 = pids.map(cpuMs);
    const main0 = pids.map(mainThreadCpuMs);
    const mysql0 = mysqlPid ? cpuMs(mysqlPid) : 0;
    const threads0 = mysqlPid ? threadCpuMs(mysqlPid) : new Map<number, number>();
    const wall0 = performance.now();
    const t0 = await databaseNow(db.pool);
    await insertDueJobs(
      db.pool,
      {
        tenantId,
        target: { url: `${targetUrl}/bench`, timeoutMs: 10_000 },
        ...(TRACE_RATIO === undefined ? {} : { traceRatio: TRACE_RATIO }),
      },
      JOBS,
    );
    for (;;) {
      const [r] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS done, MAX(finished_at) AS last FROM jobs WHERE state = 'succeeded'",
      );
      if (Number(r[0]!.done) === JOBS) {
        const seconds = ((r[0]!.last as Date).getTime() - t0.getTime()) / 1000;
        const wallMs = performance.now() - wall0;
        const executorCpu = pids.map(cpuMs).reduce((a, b) => a + b, 0) - cpu0.reduce((a, b) => a + b, 0);
        const mainCpu =
          pids.map(mainThreadCpuMs).reduce((a, b) => a + b, 0) - main0.reduce((a, b) => a + b, 0);
        const mysqlCpu = mysqlPid ? cpuMs(mysqlPid) - mysql0 : Number.NaN;
        const connectionsCpu = mysqlPid
          ? await connectionThreadCpuMs(db.pool, mysqlPid, db.name, threads0)
          : Number.NaN;
        const after = await Promise.all(services.map(claimHistogram));
        const sum = after.reduce((s, h, i) => s + h.sum - before[i]!.sum, 0);
        const count = after.reduce((s, h, i) => s + h.count - before[i]!.count, 0);
        return {
          jobsPerS: JOBS / seconds,
          executorCpuMsPerJob: executorCpu / JOBS,
          executorMainCpuMsPerJob: mainCpu / JOBS,
          mysqlCpuMsPerJob: mysqlCpu / JOBS,
          mysqlConnectionsCpuMsPerJob: connectionsCpu / JOBS,
          executorCores: executorCpu / wallMs,
          mysqlCores: mysqlCpu / wallMs,
          rowsPerClaim: count > 0 ? sum / count : 0,
          ...(idle ? { idle } : {}),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await Promise.all(services.map((s) => s.stop()));
  }
}

/** The main thread of a process: its thread id is the process id. */
function mainThreadCpuMs(pid: number): number {
  return cpuMs(`${pid}/task/${pid}`);
}

async function waitSucceeded(pool: Pool, jobs: number): Promise<void> {
  for (;;) {
    const [r] = await pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS done FROM jobs WHERE state = 'succeeded'",
    );
    if (Number(r[0]!.done) === jobs) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Bench {
  url: string;
  name: string;
  pool: Pool;
}

async function main(): Promise<void> {
  // The benchmark's own database (created and migrated by ensureStack), emptied before each run;
  // named for the checkout, so two checkouts benchmarking at once on one server do not empty each
  // other's jobs.
  const name = `dsched_bench_executor_${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 6)}`;
  const url = `${MYSQL_SERVER_URL}/${name}`;
  await ensureStack({ DATABASE_URL: url, CASSANDRA_KEYSPACE: name }, 'mysql');
  // One connection: connectionThreadCpuMs leaves the benchmark's own connection out by its id.
  const db: Bench = { url, name, pool: createPool(url, { connectionLimit: 1 }) };
  const target = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (RETRY_FIRST && req.headers['dsched-attempt'] === '1') res.statusCode = 500;
      res.end();
    });
  });
  target.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  const targetUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const tenant = await createTenantWithKey(db.pool);
    const settings = Object.entries(EXTRA_ENV)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    process.stdout.write(
      `executor bench: ${JOBS} jobs × ${RUNS} runs per configuration${WARMUP > 0 ? ` after ${WARMUP} warm-up jobs` : ''}${settings ? `, ${settings}` : ''}${RETRY_FIRST ? ', each retried once' : ''}; ${machine()}\n\n`,
    );
    const rows: { executors: number; results: RunResult[] }[] = [];
    for (const executors of EXECUTORS) {
      const results: RunResult[] = [];
      for (let i = 0; i < RUNS; i++) results.push(await run(db, tenant.id, targetUrl, executors));
      rows.push({ executors, results });
    }
    const m = (r: RunResult[], f: (x: RunResult) => number) => median(r.map(f));
    process.stdout.write(
      'executors  jobs/s   exec CPU ms/job  (main thread)  mysql CPU ms/job  (its conns)  exec cores  mysql cores  rows/claim\n',
    );
    for (const { executors, results } of rows) {
      process.stdout.write(
        `${String(executors).padStart(9)}  ${m(results, (x) => x.jobsPerS)
          .toFixed(0)
          .padStart(6)}  ${m(results, (x) => x.executorCpuMsPerJob)
          .toFixed(3)
          .padStart(15)}  ${m(results, (x) => x.executorMainCpuMsPerJob)
          .toFixed(3)
          .padStart(13)}  ${m(results, (x) => x.mysqlCpuMsPerJob)
          .toFixed(3)
          .padStart(16)}  ${m(results, (x) => x.mysqlConnectionsCpuMsPerJob)
          .toFixed(3)
          .padStart(11)}  ${m(results, (x) => x.executorCores)
          .toFixed(2)
          .padStart(10)}  ${m(results, (x) => x.mysqlCores)
          .toFixed(2)
          .padStart(11)}  ${m(results, (x) => x.rowsPerClaim)
          .toFixed(1)
          .padStart(10)}\n`,
      );
    }
    if (IDLE_S > 0) {
      for (const { executors, results } of rows) {
        process.stdout.write(
          `idle, ${executors} executor(s): ${m(results, (x) => x.idle!.executorMsPerS).toFixed(1)} ms CPU/s, ` +
            `their MariaDB connections ${m(results, (x) => x.idle!.connectionsMsPerS).toFixed(1)} ms/s\n`,
        );
      }
    }
    const all = rows.flatMap((r) => r.results);
    const at = (k: number, f: (x: RunResult) => number) => {
      const row = rows.find((r) => r.executors === k);
      return row ? m(row.results, f) : Number.NaN;
    };
    const perK = (k: number) => at(k, (x) => x.jobsPerS);
    const most = Math.max(...EXECUTORS);
    const mysqlMs = m(all, (x) => x.mysqlCpuMsPerJob);
    const executorMs = m(all, (x) => x.executorCpuMsPerJob);
    const scaling = perK(most) / perK(Math.min(...EXECUTORS));
    const runQueue = loadavg()[0]! / cpus().length;
    // Executors scale out (one process per core); MySQL is one primary. On dedicated cores, the
    // fleet's ceiling is MySQL's: 1000 / (its CPU ms per job) jobs/s for each core it can use.
    const cores = cpus().length;
    const busy = m(all, (x) => x.executorCores) + m(all, (x) => x.mysqlCores);
    const heavier = executorMs > mysqlMs ? 'an executor' : 'MySQL';
    const bottleneck =
      scaling >= 1.2
        ? 'the executor: throughput grows with executor processes'
        : runQueue > 1.5 || busy > 0.6 * cores
          ? `this machine's CPU: more executor processes add nothing (×${scaling.toFixed(2)} at ${most}), with ` +
            `executors and MySQL using ${busy.toFixed(2)} of ${cores} cores beside the target (run queue ` +
            `${runQueue.toFixed(1)} per core); per job ${heavier} spends the most, so here it is the limit. ` +
            'Executors scale out one process per core and MySQL does not: on dedicated cores MySQL is the ceiling'
          : 'MySQL: more executor processes add little while the machine has CPU to spare';
    process.stdout.write(
      `\nCPU per job: executors ${executorMs.toFixed(3)} ms, MySQL ${mysqlMs.toFixed(3)} ms. Ceilings on ` +
        `dedicated cores: ~${Math.round(1000 / mysqlMs)} jobs/s per MySQL core, ~${Math.round(1000 / executorMs)} ` +
        `jobs/s per executor process.\n${most} executors vs ${Math.min(...EXECUTORS)}: ×${scaling.toFixed(2)}.\nBottleneck: ${bottleneck}.\n`,
    );
    // A configuration not run (--executors) is left out rather than reported as null.
    const metrics = Object.fromEntries(
      Object.entries({
        jobs_per_s_1: Math.round(perK(1)),
        jobs_per_s_2: Math.round(perK(2)),
        jobs_per_s_4: Math.round(perK(4)),
        cpu_ms_per_job: Number(m(all, (x) => x.executorCpuMsPerJob).toFixed(3)),
        executor_cpu_ms_per_job_1: Number(at(1, (x) => x.executorCpuMsPerJob).toFixed(3)),
        executor_main_thread_cpu_ms_per_job_1: Number(at(1, (x) => x.executorMainCpuMsPerJob).toFixed(3)),
        mysql_cpu_ms_per_job_1: Number(at(1, (x) => x.mysqlCpuMsPerJob).toFixed(3)),
        mysql_connections_cpu_ms_per_job_1: Number(at(1, (x) => x.mysqlConnectionsCpuMsPerJob).toFixed(3)),
        rows_per_claim: Number(m(all, (x) => x.rowsPerClaim).toFixed(1)),
      }).filter(([, v]) => Number.isFinite(v)),
    );
    process.stdout.write(`${JSON.stringify({ bench: 'executor', metrics })}\n`);
  } finally {
    await db.pool.end();
    target.close();
  }
}

await main();
