// pnpm bench history [--jobs N] [--archive N] [--archive-tasks N] [--rounds N] [--case all|main|tags]
//       [--tag-jobs N] [--tags N]
//
// Archiver throughput and history query latency at 1M archived jobs for one tenant.
// 1. Prepares (once; kept for later runs) N archived jobs of one tenant, written straight to
//    history with bounded concurrency: 20 tasks, spread over the last 7 days.
// 2. Archiver throughput: M finished jobs put in MySQL, moved by the archiver's own core and
//    adapters (history write, then MySQL delete), timed; median over the rounds.
// 3. Query latency through a real job-api process: a task's runs (a page of 50 over one day,
//    then the next page by token) and one-job lookups of archived jobs (MySQL miss, then history).
// 4. The tag case (docs/tags.md): another tenant's 100,000 archived runs across 1,000 tags (a
//    `group` tag of 1,000 values, and `env:bench` on all), over the same 7 days; pages of 50 of
//    GET /v1/jobs?tag=group:gN (and with &tag=env:bench, all must match) through the same job-api,
//    first pages and the next by token, p50 and p99 over every page.
// Uses DATABASE_URL / CASSANDRA_KEYSPACE when set, else dsched_bench_history for both.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createCassandraClient } from '@dsched/cassandra/client';
import { getArchivedJob, writeJobHistory } from '@dsched/cassandra/job-history';
import { DEFAULT_PARTITIONS, type JobView, newId, partitionGroups } from '@dsched/domain';
import { createPool } from '@dsched/mysql/pool';
import { createRegistry } from '@dsched/runtime';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { startService } from '@dsched/testkit/services';
import { pidsMatching } from '../loadtest/src/harness/cpu.ts';
import { cassandraHistoryWriter, mysqlFinishedJobSource } from '../services/archiver/src/adapters/stores.ts';
import { Archiver } from '../services/archiver/src/core/archive.ts';
import { ArchiverMetrics } from '../services/archiver/src/metrics.ts';
import { cpuMs } from './_cpu.ts';
import { ensureStack, machine, median, percentile } from './_stack.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const JOBS = arg('jobs', 1_000_000);
const ARCHIVE = arg('archive', 20_000);
// The tasks the archived jobs of a round belong to: 1 is one task's burst (one run partition per
// day), 20,000 the shape of the 09:00 peak (every job its own task).
const ARCHIVE_TASKS = arg('archive-tasks', 1);
const ROUNDS = arg('rounds', 3);
const QUERIES = arg('queries', 300);
const caseArg = process.argv.indexOf('--case');
const CASE = caseArg > 0 ? process.argv[caseArg + 1]! : 'all';
if (!['all', 'main', 'tags'].includes(CASE)) throw new Error('--case: all, main or tags');
const TAG_JOBS = arg('tag-jobs', 100_000);
const TAG_VALUES = arg('tags', 1000);
const TASKS = 20;
const SPAN_MS = 7 * 86_400_000;
const env = {
  DATABASE_URL: process.env.DATABASE_URL ?? 'mysql://dsched:dsched@127.0.0.1:3306/dsched_bench_history',
  CASSANDRA_KEYSPACE: process.env.CASSANDRA_KEYSPACE ?? 'dsched_bench_history',
};
const STATE_FILE = new URL(`../.stack/bench-history-${env.CASSANDRA_KEYSPACE}.json`, import.meta.url);

interface Dataset {
  jobs: number;
  tenantId: string;
  apiKey: string;
  taskIds: string[];
  end: number;
  sampleIds: string[];
}

const log = (msg: string) => process.stderr.write(`bench history: ${msg}\n`);
await ensureStack(env);
const pool = createPool(env.DATABASE_URL, { connectionLimit: 8 });
const cassandra = createCassandraClient({
  contactPoints: ['127.0.0.1:9042'],
  localDataCenter: 'datacenter1',
  keyspace: env.CASSANDRA_KEYSPACE,
});

function doc(id: string, taskId: string, at: number, dead: boolean): JobView {
  const scheduledFor = new Date(at).toISOString();
  const finishedAt = new Date(at + 140).toISOString();
  return {
    id,
    taskId,
    kind: 'scheduled',
    state: dead ? 'dead' : 'succeeded',
    attempt: dead ? 3 : 1,
    maxAttempts: 3,
    attemptGroup: 1,
    priority: 'normal',
    scheduledFor,
    startedAt: new Date(at + 20).toISOString(),
    finishedAt,
    lastStatus: dead ? 503 : 200,
    ...(dead ? { lastError: 'HTTP 503 (attempt cap 3 reached)' } : {}),
    attempts: [
      {
        attempt: 1,
        startedAt: scheduledFor,
        finishedAt,
        status: dead ? 503 : 200,
        durationMs: 120,
        executor: 'executor-7f9c-0',
      },
    ],
  };
}

/** N archived jobs of one tenant, written to history in bounded batches (reused when present). */
async function prepare(): Promise<Dataset> {
  if (existsSync(STATE_FILE)) {
    const state = JSON.parse(readFileSync(STATE_FILE, 'utf8')) as Dataset;
    // Reused only while the keyspace still holds it (a Cassandra started afresh does not).
    const sample = state.sampleIds[0];
    if (state.jobs === JOBS && sample && (await getArchivedJob(cassandra, state.tenantId, sample)))
      return state;
  }
  const tenant = await createTenantWithKey(pool, 'bench-history');
  const taskIds: string[] = [];
  for (let t = 0; t < TASKS; t++) taskIds.push((await createTask(pool, cronTask(tenant.id))).id);
  const end = Date.now() - 3_600_000;
  const step = SPAN_MS / JOBS;
  const sampleIds: string[] = [];
  const started = performance.now();
  const BATCH = 2000;
  for (let i = 0; i < JOBS; i += BATCH) {
    const records = [];
    for (let j = i; j < Math.min(JOBS, i + BATCH); j++) {
      const at = Math.floor(end - SPAN_MS + j * step);
      const id = newId(at);
      if (j % Math.max(1, Math.floor(JOBS / 1000)) === 0) sampleIds.push(id);
      records.push({ tenantId: tenant.id, view: doc(id, taskIds[j % TASKS]!, at, j % 97 === 0) });
    }
    await writeJobHistory(cassandra, records, { ttlSeconds: 30 * 86_400, concurrency: 128 });
    if ((i / BATCH) % 50 === 0) {
      const rate = (i + BATCH) / ((performance.now() - started) / 1000);
      log(`prepared ${i + BATCH} of ${JOBS} (${Math.round(rate)} jobs/s)`);
    }
  }
  const state: Dataset = { jobs: JOBS, tenantId: tenant.id, apiKey: tenant.apiKey, taskIds, end, sampleIds };
  mkdirSync(new URL('../.stack/', import.meta.url), { recursive: true });
  writeFileSync(STATE_FILE, JSON.stringify(state));
  return state;
}

interface TagDataset {
  jobs: number;
  tags: number;
  tenantId: string;
  apiKey: string;
  sampleId: string;
}
const TAG_STATE_FILE = new URL(
  `../.stack/bench-history-tags-${env.CASSANDRA_KEYSPACE}.json`,
  import.meta.url,
);

/** The tag case's archived runs (once; kept for later runs while the keyspace holds them). */
async function prepareTags(): Promise<TagDataset> {
  if (existsSync(TAG_STATE_FILE)) {
    const state = JSON.parse(readFileSync(TAG_STATE_FILE, 'utf8')) as TagDataset;
    if (
      state.jobs === TAG_JOBS &&
      state.tags === TAG_VALUES &&
      (await getArchivedJob(cassandra, state.tenantId, state.sampleId))
    )
      return state;
  }
  const tenant = await createTenantWithKey(pool, 'bench-history-tags');
  const task = (await createTask(pool, cronTask(tenant.id))).id;
  const end = Date.now() - 3_600_000;
  const step = SPAN_MS / TAG_JOBS;
  let sampleId = '';
  for (let i = 0; i < TAG_JOBS; i += 2000) {
    const records = [];
    for (let j = i; j < Math.min(TAG_JOBS, i + 2000); j++) {
      const at = Math.floor(end - SPAN_MS + j * step);
      const id = newId(at);
      sampleId ||= id;
      const view = {
        ...doc(id, task, at, j % 97 === 0),
        tags: { env: 'bench', group: `g${j % TAG_VALUES}` },
      };
      records.push({ tenantId: tenant.id, view });
    }
    await writeJobHistory(cassandra, records, { ttlSeconds: 30 * 86_400, concurrency: 128 });
    if ((i / 2000) % 10 === 0) log(`prepared ${i + 2000} of ${TAG_JOBS} tagged jobs`);
  }
  const state = { jobs: TAG_JOBS, tags: TAG_VALUES, tenantId: tenant.id, apiKey: tenant.apiKey, sampleId };
  mkdirSync(new URL('../.stack/', import.meta.url), { recursive: true });
  writeFileSync(TAG_STATE_FILE, JSON.stringify(state));
  return state;
}

const cassandraPids = pidsMatching('org.apache.cassandra.service.CassandraDaemon');
const cassandraCpuMs = () => cassandraPids.reduce((sum, pid) => sum + cpuMs(pid), 0);
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface ArchiveRound {
  perS: number;
  /** CPU per archived job of this process (the archiver's core and adapters run in it). */
  archiverCpuMs: number;
  /** Of Cassandra's JVM (shared: other writers' work is in it too). */
  cassandraCpuMs: number;
}

/** Moves ARCHIVE finished jobs with the archiver's core and adapters; jobs per second and CPU per job. */
async function archiveRound(): Promise<ArchiveRound> {
  const tenant = await createTenantWithKey(pool, 'bench-archive');
  // The first task is a stored one; the others only ids (nothing on the archive path reads tasks).
  const tasks = [(await createTask(pool, cronTask(tenant.id))).id];
  for (let t = 1; t < Math.min(ARCHIVE_TASKS, ARCHIVE); t++) tasks.push(newId());
  const now = Date.now();
  await insertJobs(
    pool,
    Array.from({ length: ARCHIVE }, (_, i) => ({
      tenantId: tenant.id,
      taskId: tasks[i % tasks.length]!,
      scheduledFor: new Date(now - 3_600_000 + i * 10),
      state: 'succeeded' as const,
    })),
  );
  const archiver = new Archiver({
    source: mysqlFinishedJobSource(pool, { deadRetentionSeconds: 7 * 86_400 }),
    write: cassandraHistoryWriter(cassandra, { ttlSeconds: 86_400, concurrency: 64 }),
    metrics: new ArchiverMetrics(createRegistry('bench')),
    batchSize: 500,
    groups: () => partitionGroups(DEFAULT_PARTITIONS, []),
  });
  const t0 = performance.now();
  const [own0, cass0] = [ownCpuMs(), cassandraCpuMs()];
  for (let guard = 0; guard < ARCHIVE; guard++) if (!(await archiver.runOnce())) break;
  return {
    perS: ARCHIVE / ((performance.now() - t0) / 1000),
    archiverCpuMs: (ownCpuMs() - own0) / ARCHIVE,
    cassandraCpuMs: (cassandraCpuMs() - cass0) / ARCHIVE,
  };
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const MAIN = CASE !== 'tags';
const data = MAIN ? await prepare() : undefined;
const tagData = CASE !== 'main' ? await prepareTags() : undefined;
if (data) log(`dataset: ${data.jobs} archived jobs of tenant ${data.tenantId}, ${data.taskIds.length} tasks`);
const jobApi = await startService('job-api', { ...env, LOG_LEVEL: 'warn' });
const get = async (path: string, apiKey = data?.apiKey) => {
  const res = await fetch(`${jobApi.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ runs?: { id: string }[]; jobs?: { id: string }[]; nextPageToken?: string }>;
};

const rounds: {
  archived: ArchiveRound;
  runsP50: number;
  runsP99: number;
  lookupP50: number;
  rows: number;
}[] = [];
let rng = 42;
const random = () => {
  rng = (rng * 1_103_515_245 + 12_345) % 2 ** 31;
  return rng / 2 ** 31;
};

/** Tag-filtered pages of the tag case: a first page and the next by token, per query. */
async function tagPages(d: TagDataset): Promise<{ pages: number[]; rows: number; queries: number }> {
  const pages: number[] = [];
  let rows = 0;
  for (let q = 0; q < QUERIES + 20; q++) {
    const group = `group:g${Math.floor(random() * d.tags)}`;
    const base = `/v1/jobs?tag=${group}${q % 2 === 1 ? '&tag=env:bench' : ''}&limit=50`;
    let token: string | undefined;
    const first = await timed(async () => {
      const page = await get(base, d.apiKey);
      rows += page.jobs?.length ?? 0;
      token = page.nextPageToken;
    });
    let second: number | undefined;
    if (token) {
      second = await timed(async () => {
        const page = await get(`${base}&pageToken=${token}`, d.apiKey);
        rows += page.jobs?.length ?? 0;
      });
    }
    if (q < 20) continue; // warm-up
    pages.push(first, ...(second === undefined ? [] : [second]));
  }
  return { pages: pages.sort((a, b) => a - b), rows, queries: QUERIES };
}

let tags: { pages: number[]; rows: number; queries: number } | undefined;
try {
  for (let r = 0; MAIN && data && r < ROUNDS; r++) {
    const archived = await archiveRound();
    const runs: number[] = [];
    const lookups: number[] = [];
    let rows = 0;
    for (let q = 0; q < QUERIES + 20; q++) {
      const task = data.taskIds[Math.floor(random() * data.taskIds.length)]!;
      const to = Math.floor(data.end - random() * (SPAN_MS - 86_400_000));
      const base = `/v1/tasks/${task}/runs?from=${new Date(to - 86_400_000).toISOString()}&to=${new Date(to).toISOString()}&limit=50`;
      let token: string | undefined;
      const first = await timed(async () => {
        const page = await get(base);
        rows += page.runs?.length ?? 0;
        token = page.nextPageToken;
      });
      const second = await timed(async () => {
        if (token) rows += (await get(`${base}&pageToken=${token}`)).runs?.length ?? 0;
      });
      const id = data.sampleIds[Math.floor(random() * data.sampleIds.length)]!;
      const lookup = await timed(async () => void (await get(`/v1/jobs/${id}`)));
      if (q < 20) continue; // warm-up
      runs.push(first, second);
      lookups.push(lookup);
    }
    runs.sort((a, b) => a - b);
    lookups.sort((a, b) => a - b);
    rounds.push({
      archived,
      runsP50: percentile(runs, 50),
      runsP99: percentile(runs, 99),
      lookupP50: percentile(lookups, 50),
      rows,
    });
    log(`round ${r + 1}: ${JSON.stringify(rounds.at(-1))}`);
  }
  if (tagData) {
    tags = await tagPages(tagData);
    log(`tag case: ${tags.pages.length} pages, ${tags.rows} rows`);
  }
} finally {
  await jobApi.stop();
  await pool.end();
  await cassandra.shutdown();
}

const metrics: Record<string, number> = {};
console.log(`history benchmark — ${machine()}`);
if (data && rounds.length > 0) {
  Object.assign(metrics, {
    archived_per_s: Math.round(median(rounds.map((r) => r.archived.perS))),
    archiver_cpu_ms_per_job: Number(median(rounds.map((r) => r.archived.archiverCpuMs)).toFixed(3)),
    cassandra_cpu_ms_per_job: Number(median(rounds.map((r) => r.archived.cassandraCpuMs)).toFixed(3)),
    runs_page_ms_p50: Number(median(rounds.map((r) => r.runsP50)).toFixed(2)),
    runs_page_ms_p99: Number(median(rounds.map((r) => r.runsP99)).toFixed(2)),
    job_lookup_ms_p50: Number(median(rounds.map((r) => r.lookupP50)).toFixed(2)),
  });
  console.log(
    `dataset: ${data.jobs.toLocaleString('en')} archived jobs, one tenant, ${TASKS} tasks over 7 days`,
  );
  console.log(
    `rounds: ${ROUNDS}; per round ${ARCHIVE.toLocaleString('en')} jobs archived, ${QUERIES} x (2 runs pages + 1 lookup)`,
  );
  console.log('');
  console.log('| metric                         | median of rounds |');
  console.log('|--------------------------------|------------------|');
  console.log(`| archiver, jobs/s (MySQL+Cass.) | ${String(metrics.archived_per_s).padStart(16)} |`);
  console.log(`| archiver CPU, ms per job       | ${String(metrics.archiver_cpu_ms_per_job).padStart(16)} |`);
  console.log(
    `| Cassandra CPU, ms per job      | ${String(metrics.cassandra_cpu_ms_per_job).padStart(16)} |`,
  );
  console.log(`| runs page (50), p50 ms         | ${String(metrics.runs_page_ms_p50).padStart(16)} |`);
  console.log(`| runs page (50), p99 ms         | ${String(metrics.runs_page_ms_p99).padStart(16)} |`);
  console.log(`| job lookup (archived), p50 ms  | ${String(metrics.job_lookup_ms_p50).padStart(16)} |`);
}
if (tagData && tags) {
  Object.assign(metrics, {
    tag_page_ms_p50: Number(percentile(tags.pages, 50).toFixed(2)),
    tag_page_ms_p99: Number(percentile(tags.pages, 99).toFixed(2)),
    tag_pages: tags.pages.length,
  });
  console.log('');
  console.log(
    `tag case: ${tagData.jobs.toLocaleString('en')} archived runs across ${tagData.tags.toLocaleString('en')} tags ` +
      `(+ env:bench on all), ${tags.queries} queries (half group:gN, half group:gN & env:bench), page 1 and 2 of 50`,
  );
  console.log('| metric                         | value            |');
  console.log('|--------------------------------|------------------|');
  console.log(`| tag-filtered page (50), p50 ms | ${String(metrics.tag_page_ms_p50).padStart(16)} |`);
  console.log(`| tag-filtered page (50), p99 ms | ${String(metrics.tag_page_ms_p99).padStart(16)} |`);
  console.log(`| pages timed                    | ${String(metrics.tag_pages).padStart(16)} |`);
}
console.log(JSON.stringify({ bench: 'history', case: CASE, metrics }));
