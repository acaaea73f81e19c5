// pnpm bench executor [--jobs N] [--runs R]
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
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { createPool, databaseNow, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { MYSQL_SERVER_URL } from '@dsched/testkit/mysql';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type RunningService, startService } from '@dsched/testkit/services';
import { ensureStack, machine, median } from './_stack.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const JOBS = option('jobs', 2000);
const RUNS = option('runs', 3);
const EXECUTORS = [1, 2, 4];
const TICK_MS = 1000 / 100; // USER_HZ: /proc times are in clock ticks of 10 ms on Linux

/** CPU milliseconds (user + system) a process has used so far. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function findPid(names: string[]): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

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
  mysqlCpuMsPerJob: number;
  executorCores: number;
  mysqlCores: number;
  rowsPerClaim: number;
}

async function run(db: Bench, tenantId: string, targetUrl: string, executors: number): Promise<RunResult> {
  await db.pool.query('DELETE FROM job_attempts');
  await db.pool.query('DELETE FROM jobs');
  const services = await Promise.all(
    Array.from({ length: executors }, (_, i) =>
      startService('executor', {
        DATABASE_URL: db.url,
        INSTANCE_ID: `bench-${i}`,
        EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
        LOG_LEVEL: 'warn',
      }),
    ),
  );
  try {
    const mysqlPid = findPid(['mariadbd', 'mysqld']);
    const pids = services.map((s) => s.process.pid!);
    const before = await Promise.all(services.map(claimHistogram));
    const cpu0 = pids.map(cpuMs);
    const mysql0 = mysqlPid ? cpuMs(mysqlPid) : 0;
    const wall0 = performance.now();
    const t0 = await databaseNow(db.pool);
    await insertDueJobs(
      db.pool,
      { tenantId, target: { url: `${targetUrl}/bench`, timeoutMs: 10_000 } },
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
        const mysqlCpu = mysqlPid ? cpuMs(mysqlPid) - mysql0 : Number.NaN;
        const after = await Promise.all(services.map(claimHistogram));
        const sum = after.reduce((s, h, i) => s + h.sum - before[i]!.sum, 0);
        const count = after.reduce((s, h, i) => s + h.count - before[i]!.count, 0);
        return {
          jobsPerS: JOBS / seconds,
          executorCpuMsPerJob: executorCpu / JOBS,
          mysqlCpuMsPerJob: mysqlCpu / JOBS,
          executorCores: executorCpu / wallMs,
          mysqlCores: mysqlCpu / wallMs,
          rowsPerClaim: count > 0 ? sum / count : 0,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await Promise.all(services.map((s) => s.stop()));
  }
}

interface Bench {
  url: string;
  pool: Pool;
}

async function main(): Promise<void> {
  // The benchmark's own database (created and migrated by ensureStack), emptied before each run.
  const url = `${MYSQL_SERVER_URL}/dsched_bench_executor`;
  await ensureStack({ DATABASE_URL: url, CASSANDRA_KEYSPACE: 'dsched_bench_executor' });
  const db: Bench = { url, pool: createPool(url, { connectionLimit: 4 }) };
  const target = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end());
  });
  target.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  const targetUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const tenant = await createTenantWithKey(db.pool);
    process.stdout.write(`executor bench: ${JOBS} jobs × ${RUNS} runs per configuration; ${machine()}\n\n`);
    const rows: { executors: number; results: RunResult[] }[] = [];
    for (const executors of EXECUTORS) {
      const results: RunResult[] = [];
      for (let i = 0; i < RUNS; i++) results.push(await run(db, tenant.id, targetUrl, executors));
      rows.push({ executors, results });
    }
    const m = (r: RunResult[], f: (x: RunResult) => number) => median(r.map(f));
    process.stdout.write(
      'executors  jobs/s   exec CPU ms/job  mysql CPU ms/job  exec cores  mysql cores  rows/claim\n',
    );
    for (const { executors, results } of rows) {
      process.stdout.write(
        `${String(executors).padStart(9)}  ${m(results, (x) => x.jobsPerS)
          .toFixed(0)
          .padStart(6)}  ${m(results, (x) => x.executorCpuMsPerJob)
          .toFixed(3)
          .padStart(15)}  ${m(results, (x) => x.mysqlCpuMsPerJob)
          .toFixed(3)
          .padStart(16)}  ${m(results, (x) => x.executorCores)
          .toFixed(2)
          .padStart(10)}  ${m(results, (x) => x.mysqlCores)
          .toFixed(2)
          .padStart(11)}  ${m(results, (x) => x.rowsPerClaim)
          .toFixed(1)
          .padStart(10)}\n`,
      );
    }
    const all = rows.flatMap((r) => r.results);
    const perK = (k: number) => m(rows.find((r) => r.executors === k)!.results, (x) => x.jobsPerS);
    const mysqlMs = m(all, (x) => x.mysqlCpuMsPerJob);
    const executorMs = m(all, (x) => x.executorCpuMsPerJob);
    const scaling = perK(4) / perK(1);
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
          ? `this machine's CPU: more executor processes add nothing (×${scaling.toFixed(2)} at 4), with ` +
            `executors and MySQL using ${busy.toFixed(2)} of ${cores} cores beside the target (run queue ` +
            `${runQueue.toFixed(1)} per core); per job ${heavier} spends the most, so here it is the limit. ` +
            'Executors scale out one process per core and MySQL does not: on dedicated cores MySQL is the ceiling'
          : 'MySQL: more executor processes add little while the machine has CPU to spare';
    process.stdout.write(
      `\nCPU per job: executors ${executorMs.toFixed(3)} ms, MySQL ${mysqlMs.toFixed(3)} ms. Ceilings on ` +
        `dedicated cores: ~${Math.round(1000 / mysqlMs)} jobs/s per MySQL core, ~${Math.round(1000 / executorMs)} ` +
        `jobs/s per executor process.\n4 executors vs 1: ×${scaling.toFixed(2)}.\nBottleneck: ${bottleneck}.\n`,
    );
    const metrics = {
      jobs_per_s_1: Math.round(perK(1)),
      jobs_per_s_2: Math.round(perK(2)),
      jobs_per_s_4: Math.round(perK(4)),
      cpu_ms_per_job: Number(m(all, (x) => x.executorCpuMsPerJob).toFixed(3)),
      rows_per_claim: Number(m(all, (x) => x.rowsPerClaim).toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify({ bench: 'executor', metrics })}\n`);
  } finally {
    await db.pool.end();
    target.close();
  }
}

await main();
