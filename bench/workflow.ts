// pnpm bench workflow [--parts submit,hop,hop202,fanout,map] [--nodes N] [--rounds N] [--chain N]
//                     [--chain202 N] [--fanout N] [--map N] [--executors N] [--cpu-prof DIR]
//
// Workflows, in five parts (docs/performance.md has the method; hop202 and map run only when named):
//
// submit  parse, validate (O(V+E) graph check) and store a workflow of --nodes nodes (100,000) with
//         about two parents per node (~200,000 edges), as task-api does it (the domain's check,
//         then the MySQL store in one transaction); median over --rounds (3): submit_100k_s.
// hop     a chain of --chain nodes (2,000) through real executor processes and a reconciler, an
//         instant loopback target: from a parent's outcome (its node row's finished_at, written in
//         the outcome transaction) to its child's call at the target: hop_ms_p50, hop_ms_p99.
// hop202  a chain of --chain202 nodes (100) whose target answers 202 and then completes each call
//         through job-api (POST /v1/jobs/{id}/complete, as an asynchronous endpoint does): from
//         job-api's answer to the completion to the child's call at the target: hop202_ms_p50,
//         hop202_ms_p99. Starts job-api beside the executors and the reconciler.
// fanout  --fanout plain once-jobs (100,000) due at once, then a workflow 1 → --fanout → 1 of the
//         same calls, same executors (the middle layer is at most 99,998 wide: with the root and the
//         join that is the node cap): fanout_ratio (workflow drain / plain drain), fanin_ms (the
//         join's call − its last parent's outcome), completion_ms_p50_at_100k (ms per completion
//         over windows of 1,000, of that run) against completion_ms_p50_at_1k (five 1 → 1,000 → 1
//         runs), and rss_mb_max (the executors' and the reconciler's largest RSS during the big
//         run) beside rss_mb_idle (a second after they started, before any work) and
//         rss_executor_mb_max_plain (the executor's largest during the plain jobs: the same calls
//         without a graph).
// map     a workflow 1 → map(--map items, 10,000) → 1 (the root answers the array) against the fixed
//         fan-out 1 → --map → 1 of the same calls, same executors, alternating, --rounds rounds
//         (1 each unless said): map_ratio (the map run's drain / the fixed run's, commit to the
//         join's outcome, median of the rounds), map_s, map_fixed_s, map_first_item_s (root's
//         outcome → first item called: the first slice of items made by the node waker).
//
// --cpu-prof DIR starts each executor with node's --cpu-prof (one .cpuprofile per process at its
// exit, in DIR; profiling slows it, so its figures are not the run's).
// Uses DATABASE_URL when set, else dsched_bench_workflow (submit) and a database of this checkout
// (dsched_bench_wfrun_<hash>, emptied before each run) for the parts with executors.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createWorkflowSchema, MAX_WORKFLOW_NODES, planWorkflow } from '@dsched/domain';
import { createPool, databaseNow, type Pool, type RowDataPacket } from '@dsched/mysql/pool';
import { insertWorkflow } from '@dsched/mysql/workflows';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { MYSQL_SERVER_URL } from '@dsched/testkit/mysql';
import { REPO_ROOT } from '@dsched/testkit/names';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type RunningService, startService } from '@dsched/testkit/services';
import { ensureStack, machine, median, percentile } from './_stack.ts';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const text = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const PARTS = new Set(text('parts', 'submit,hop,fanout').split(','));
const CHAIN_202 = arg('chain202', 100);
const NODES = arg('nodes', 100_000);
const ROUNDS = arg('rounds', 3);
const CHAIN = arg('chain', 2000);
// 1 → m → 1 is m + 2 nodes: at the node cap the middle layer is 99,998 wide, the plain jobs as many.
const FANOUT = Math.min(arg('fanout', 100_000), MAX_WORKFLOW_NODES - 2);
const MAP_ITEMS = Math.min(arg('map', 10_000), MAX_WORKFLOW_NODES - 3);
const EXECUTORS = arg('executors', 1);
const CPU_PROF_DIR = argv.includes('--cpu-prof') ? text('cpu-prof', '') : undefined;
const metrics: Record<string, number> = {};
const say = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------
// submit

async function submitPart(): Promise<void> {
  const env = {
    DATABASE_URL: process.env.DATABASE_URL ?? `${MYSQL_SERVER_URL}/dsched_bench_workflow`,
    CASSANDRA_KEYSPACE: process.env.CASSANDRA_KEYSPACE ?? 'dsched_bench_workflow',
  };
  await ensureStack(env);
  const pool = createPool(env.DATABASE_URL, { connectionLimit: 4 });
  // The runs of earlier rounds and invocations go: every round stores into the same empty tables.
  await emptyRun(pool);
  const tenant = await createTenantWithKey(pool, 'bench-workflow');
  // Ten roots, then each node depends on an earlier node about half its index back and on one of
  // the few just before it: fan-out, fan-in and long chains, every parent earlier (a DAG). The
  // targets are never called: no executor runs on this database.
  const nodes = Array.from({ length: NODES }, (_, i) => {
    const parents = i < 10 ? [] : [...new Set([Math.floor(i / 2) - 1 - (i % 3), i - 1 - (i % 7)])];
    return { id: `n${i}`, target: { url: 'http://127.0.0.1:9/x' }, dependsOn: parents.map((p) => `n${p}`) };
  });
  const body = JSON.stringify({ name: 'bench', nodes });
  const rounds: { parse: number; check: number; store: number; total: number; edges: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    const req = createWorkflowSchema.parse(JSON.parse(body));
    const t1 = performance.now();
    const plan = planWorkflow(req, tenant.id, Date.now(), 0);
    const t2 = performance.now();
    if (!(await insertWorkflow(pool, plan))) throw new Error('quota');
    const t3 = performance.now();
    await emptyRun(pool);
    rounds.push({ parse: t1 - t0, check: t2 - t1, store: t3 - t2, total: t3 - t0, edges: plan.edgeCount });
  }
  await pool.end();
  const m = (k: 'parse' | 'check' | 'store' | 'total') => median(rounds.map((r) => r[k]));
  say(`submit: ${NODES} nodes, ${rounds[0]!.edges} edges, ${body.length} bytes, median of ${ROUNDS}`);
  say(`  JSON parse + zod          ${m('parse').toFixed(0)} ms`);
  say(`  graph check + ids         ${m('check').toFixed(0)} ms`);
  say(`  MySQL store (1 tx)        ${m('store').toFixed(0)} ms`);
  say(`  total                     ${m('total').toFixed(0)} ms`);
  Object.assign(metrics, {
    submit_100k_s: Number((m('total') / 1000).toFixed(2)),
    nodes: NODES,
    edges: rounds[0]!.edges,
    parse_ms: Math.round(m('parse')),
    check_ms: Math.round(m('check')),
    store_ms: Math.round(m('store')),
  });
}

// ---------------------------------------------------------------------------------------------
// The parts with executors: a database of this checkout, the services as processes, a target.

interface Runner {
  url: string;
  pool: Pool;
  tenantId: string;
  apiKey: string;
  targetUrl: string;
  /** hop202: node path → the ms job-api answered its completion (the bench's clock). */
  completedAt: Map<string, number>;
  /** First arrival at the target per path, ms since the epoch (sub-millisecond). */
  arrivals: Map<string, number>;
  /** What the target answers on a path (a map's root: the array); else an empty body. */
  bodies: Map<string, string>;
  calls: () => number;
  services: RunningService[];
  /** Each service's RSS, MiB, a second after its start: before any work. */
  idleRss: Record<string, number>;
  close(): Promise<void>;
}

const nowMs = () => performance.timeOrigin + performance.now();

async function startRunner(): Promise<Runner> {
  const name = `dsched_bench_wfrun_${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 6)}`;
  const url = process.env.DATABASE_URL ?? `${MYSQL_SERVER_URL}/${name}`;
  // The executor and the reconciler never touch Cassandra: MySQL's migrations only.
  const keyspace = process.env.CASSANDRA_KEYSPACE ?? 'dsched_bench_workflow';
  // job-api (hop202) reads history from Cassandra: the keyspace is made then.
  await ensureStack(
    { DATABASE_URL: url, CASSANDRA_KEYSPACE: keyspace },
    PARTS.has('hop202') ? 'all' : 'mysql',
  );
  const pool = createPool(url, { connectionLimit: 4 });
  await emptyRun(pool);
  const tenant = await createTenantWithKey(pool, 'bench-workflow-run', { maxTasks: 1000 });
  const arrivals = new Map<string, number>();
  const bodies = new Map<string, string>();
  const completedAt = new Map<string, number>();
  let calls = 0;
  let jobApiUrl = '';
  // Instant answers; the first arrival of each path is kept (a node's path is its id). A hop202
  // node's call is answered 202, then completed through job-api with its attempt token.
  const target = createServer((req, res) => {
    const at = nowMs();
    calls++;
    const path = req.url ?? '';
    if (!arrivals.has(path)) arrivals.set(path, at);
    const body = bodies.get(path);
    req.resume();
    const async = path.startsWith('/hop202/');
    req.on('end', () => {
      res.statusCode = async ? 202 : 200;
      if (body !== undefined) res.setHeader('content-type', 'application/json');
      res.end(body);
      if (async)
        void complete(path, String(req.headers['idempotency-key']), Number(req.headers['dsched-attempt']));
    });
  });
  const complete = async (path: string, jobId: string, attempt: number) => {
    const answer = await fetch(`${jobApiUrl}/v1/jobs/${jobId}/complete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attempt, outcome: 'succeeded' }),
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`hop202: complete ${path} answered ${answer.status}`);
    completedAt.set(path, nowMs());
  };
  target.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  const targetUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const env = { DATABASE_URL: url, CASSANDRA_KEYSPACE: keyspace, LOG_LEVEL: 'warn' };
  const services = await Promise.all([
    ...Array.from({ length: EXECUTORS }, (_, i) =>
      startService(
        'executor',
        { ...env, INSTANCE_ID: `bench-wf-${i}`, EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8' },
        CPU_PROF_DIR ? { cpuProfDir: CPU_PROF_DIR } : {},
      ),
    ),
    startService('reconciler', { ...env, INSTANCE_ID: 'bench-wf-reconciler' }),
    ...(PARTS.has('hop202') ? [startService('job-api', { ...env, INSTANCE_ID: 'bench-wf-job-api' })] : []),
  ]);
  jobApiUrl = services.find((s) => s.name === 'job-api')?.url ?? '';
  await new Promise((res) => setTimeout(res, 1000));
  const idleRss: Record<string, number> = {};
  for (const s of services) idleRss[s.name] = Math.max(idleRss[s.name] ?? 0, rssMb(s.process.pid!));
  return {
    url,
    pool,
    tenantId: tenant.id,
    apiKey: tenant.apiKey,
    targetUrl,
    completedAt,
    arrivals,
    bodies,
    calls: () => calls,
    services,
    idleRss,
    close: async () => {
      await Promise.all(services.map((s) => s.stop()));
      await pool.end();
      await new Promise((r) => target.close(r));
    },
  };
}

/** The run database's jobs and workflows removed (it is the benchmark's own). */
async function emptyRun(pool: Pool): Promise<void> {
  for (const table of [
    'job_attempts',
    'jobs',
    'workflow_node_outputs',
    'workflow_edges',
    'workflow_nodes',
    'workflows',
  ])
    await pool.query(`TRUNCATE TABLE ${table}`);
}

/** Stores a workflow as task-api does; its commit time (the database's clock) is returned. */
async function submit(
  r: Runner,
  prefix: string,
  nodes: { id: string; dependsOn?: string[]; body?: unknown }[],
): Promise<{ id: string; committedAt: number }> {
  const req = createWorkflowSchema.parse({
    name: prefix,
    nodes: nodes.map(({ body, ...n }) => ({
      ...n,
      target: { url: `${r.targetUrl}/${prefix}/${n.id}`, ...(body === undefined ? {} : { body }) },
    })),
  });
  const plan = planWorkflow(req, r.tenantId, Date.now(), 0);
  if (!(await insertWorkflow(r.pool, plan))) throw new Error('quota');
  return { id: plan.id, committedAt: (await databaseNow(r.pool)).getTime() };
}

async function finished(r: Runner, id: string, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [rows] = await r.pool.query<RowDataPacket[]>(
      'SELECT state FROM workflows WHERE id = UNHEX(REPLACE(?, "-", ""))',
      [id],
    );
    const state = String(rows[0]?.state ?? 'missing');
    if (state !== 'running') return state;
    if (Date.now() > until) throw new Error(`workflow ${id} still running after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Node id → the ms its node row was finished (the outcome transaction's clock). */
async function nodeFinishes(r: Runner, id: string): Promise<Map<string, number>> {
  const [rows] = await r.pool.query<RowDataPacket[]>(
    'SELECT node_id, finished_at FROM workflow_nodes WHERE workflow_id = UNHEX(REPLACE(?, "-", ""))',
    [id],
  );
  return new Map(rows.map((row) => [String(row.node_id), (row.finished_at as Date).getTime()]));
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** The largest RSS of the services, sampled every 250 ms until stopped. */
function sampleRss(r: Runner): { stop: () => Record<string, number> } {
  const max: Record<string, number> = {};
  const tick = () => {
    for (const s of r.services) {
      const key = s.name;
      max[key] = Math.max(max[key] ?? 0, rssMb(s.process.pid!));
    }
  };
  tick();
  const timer = setInterval(tick, 250);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return max;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// hop

async function hopPart(r: Runner): Promise<void> {
  const nodes = Array.from({ length: CHAIN }, (_, i) => ({
    id: `c${i}`,
    ...(i > 0 ? { dependsOn: [`c${i - 1}`] } : {}),
  }));
  const wf = await submit(r, 'hop', nodes);
  const state = await finished(r, wf.id, 60_000 + CHAIN * 1000);
  const done = await nodeFinishes(r, wf.id);
  const hops: number[] = [];
  for (let i = 1; i < CHAIN; i++) {
    const called = r.arrivals.get(`/hop/c${i}`);
    const parentDone = done.get(`c${i - 1}`);
    if (called !== undefined && parentDone !== undefined) hops.push(called - parentDone);
  }
  hops.sort((a, b) => a - b);
  const total = (done.get(`c${CHAIN - 1}`)! - wf.committedAt) / 1000;
  say(`hop: a chain of ${CHAIN} nodes, ${state} in ${total.toFixed(1)} s`);
  say(
    `  parent's outcome → child's call: p50 ${percentile(hops, 50).toFixed(1)} ms, p99 ${percentile(hops, 99).toFixed(1)} ms, max ${hops.at(-1)?.toFixed(1)} ms`,
  );
  Object.assign(metrics, {
    chain: CHAIN,
    hop_ms_p50: Number(percentile(hops, 50).toFixed(1)),
    hop_ms_p99: Number(percentile(hops, 99).toFixed(1)),
    hop_ms_max: Number((hops.at(-1) ?? Number.NaN).toFixed(1)),
    chain_s: Number(total.toFixed(1)),
  });
}

// ---------------------------------------------------------------------------------------------
// hop202

async function hop202Part(r: Runner): Promise<void> {
  const nodes = Array.from({ length: CHAIN_202 }, (_, i) => ({
    id: `a${i}`,
    ...(i > 0 ? { dependsOn: [`a${i - 1}`] } : {}),
  }));
  const wf = await submit(r, 'hop202', nodes);
  const state = await finished(r, wf.id, 60_000 + CHAIN_202 * 5000);
  const hops: number[] = [];
  for (let i = 1; i < CHAIN_202; i++) {
    const called = r.arrivals.get(`/hop202/a${i}`);
    const parentCompleted = r.completedAt.get(`/hop202/a${i - 1}`);
    if (called !== undefined && parentCompleted !== undefined) hops.push(called - parentCompleted);
  }
  hops.sort((a, b) => a - b);
  say(`hop202: a chain of ${CHAIN_202} nodes answering 202, ${state}`);
  say(
    `  parent's completion (job-api's answer) → child's call: p50 ${percentile(hops, 50).toFixed(1)} ms, p99 ${percentile(hops, 99).toFixed(1)} ms, max ${hops.at(-1)?.toFixed(1)} ms`,
  );
  Object.assign(metrics, {
    chain202: CHAIN_202,
    hop202_ms_p50: Number(percentile(hops, 50).toFixed(1)),
    hop202_ms_p99: Number(percentile(hops, 99).toFixed(1)),
    hop202_ms_max: Number((hops.at(-1) ?? Number.NaN).toFixed(1)),
  });
}

// ---------------------------------------------------------------------------------------------
// fanout

/** 1 → n → 1: drain seconds (commit → join's outcome), fan-in ms, and ms per completion by window. */
async function fanout(r: Runner, prefix: string, n: number, options: { bodies?: boolean } = {}) {
  const nodes = [
    { id: 'root' },
    // `bodies`: node i is called with i as its JSON body, as a map's item i is (the same calls).
    ...Array.from({ length: n }, (_, i) => ({
      id: `m${i}`,
      dependsOn: ['root'],
      ...(options.bodies ? { body: i } : {}),
    })),
    { id: 'join', dependsOn: Array.from({ length: n }, (_, i) => `m${i}`) },
  ];
  const wf = await submit(r, prefix, nodes);
  const state = await finished(r, wf.id, 120_000 + n * 50);
  const done = await nodeFinishes(r, wf.id);
  const mids: number[] = [];
  for (let i = 0; i < n; i++) mids.push(done.get(`m${i}`)!);
  mids.sort((a, b) => a - b);
  const lastParent = mids.at(-1)!;
  const fanin = r.arrivals.get(`/${prefix}/join`)! - lastParent;
  // Wall ms per completion of the middle layer, over consecutive windows of 1,000 completions.
  const windows: number[] = [];
  const size = Math.min(1000, n);
  for (let i = 0; i + size <= n; i += size) windows.push((mids[i + size - 1]! - mids[i]!) / (size - 1));
  // Where the drain's time goes: the root's call and outcome (its walk makes the n children's
  // jobs), the wait for the first child's call, the middle layer, the fan-in.
  let firstCall = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) firstCall = Math.min(firstCall, r.arrivals.get(`/${prefix}/m${i}`)!);
  const rootDone = done.get('root')!;
  const phases = {
    rootS: (rootDone - wf.committedAt) / 1000,
    firstChildCallS: (firstCall - rootDone) / 1000,
    middleS: (lastParent - firstCall) / 1000,
    joinS: (done.get('join')! - lastParent) / 1000,
  };
  return {
    state,
    phases,
    drainS: (done.get('join')! - wf.committedAt) / 1000,
    faninMs: fanin,
    windows,
  };
}

async function fanoutPart(r: Runner): Promise<void> {
  // Warm-up and the small runs first: five 1 → 1,000 → 1.
  const small: number[] = [];
  for (let i = 0; i < 5; i++) {
    await emptyRun(r.pool);
    const run = await fanout(r, `small${i}`, 1000);
    small.push(median(run.windows));
  }
  // The same calls as plain once-jobs, due at one instant after they are all stored.
  await emptyRun(r.pool);
  const chunk = 5000;
  const dueAt = Date.now() + 2000 + FANOUT / 10;
  for (let i = 0; i < FANOUT; i += chunk)
    await insertDueJobs(
      r.pool,
      {
        tenantId: r.tenantId,
        target: { url: `${r.targetUrl}/plain`, timeoutMs: 10_000 },
        runInS: (dueAt - Date.now()) / 1000,
      },
      Math.min(chunk, FANOUT - i),
    );
  const [[firstDue]] = await r.pool.query<RowDataPacket[]>('SELECT MIN(run_at) AS due FROM jobs');
  // The same calls without a graph: what the executor's RSS is for this throughput alone.
  const plainRss = sampleRss(r);
  for (;;) {
    const [[row]] = await r.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n, MAX(finished_at) AS last FROM jobs WHERE state = 'succeeded'",
    );
    if (Number(row!.n) === FANOUT) {
      metrics.plain_s = Number(
        (((row!.last as Date).getTime() - (firstDue!.due as Date).getTime()) / 1000).toFixed(2),
      );
      break;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  const plainPeak = plainRss.stop();
  await emptyRun(r.pool);
  const idle = r.idleRss;
  const rss = sampleRss(r);
  const big = await fanout(r, 'big', FANOUT);
  const peak = rss.stop();
  const ratio = big.drainS / metrics.plain_s!;
  const atBig = median(big.windows);
  const lastWindow = big.windows.at(-1) ?? Number.NaN;
  say(`fanout: 1 → ${FANOUT} → 1 (${big.state}) against ${FANOUT} plain once-jobs, ${EXECUTORS} executor(s)`);
  say(`  plain jobs drained        ${metrics.plain_s} s`);
  say(`  workflow drained          ${big.drainS.toFixed(2)} s   ratio ${ratio.toFixed(2)}`);
  const p = big.phases;
  say(
    `    commit → root's outcome ${p.rootS.toFixed(2)} s, → first child called ${p.firstChildCallS.toFixed(2)} s, → last child's outcome ${p.middleS.toFixed(2)} s, → join's outcome ${p.joinS.toFixed(2)} s`,
  );
  say(`  fan-in (last parent → join called) ${big.faninMs.toFixed(0)} ms`);
  say(
    `  ms per completion, p50 of windows of 1,000: at 1k ${median(small).toFixed(3)}, at ${FANOUT} ${atBig.toFixed(3)} (last window ${lastWindow.toFixed(3)})`,
  );
  say(
    `  RSS MiB idle → max: ${Object.keys(peak)
      .map((k) => `${k} ${idle[k]!.toFixed(0)} → ${peak[k]!.toFixed(0)}`)
      .join(', ')}; during the plain jobs: executor ${plainPeak.executor?.toFixed(0)}`,
  );
  Object.assign(metrics, {
    fanout_nodes: FANOUT,
    fanout_ratio: Number(ratio.toFixed(2)),
    workflow_s: Number(big.drainS.toFixed(2)),
    workflow_root_s: Number(p.rootS.toFixed(2)),
    workflow_first_child_s: Number(p.firstChildCallS.toFixed(2)),
    workflow_middle_s: Number(p.middleS.toFixed(2)),
    fanin_ms: Math.round(big.faninMs),
    completion_ms_p50_at_1k: Number(median(small).toFixed(3)),
    completion_ms_p50_at_100k: Number(atBig.toFixed(3)),
    completion_ms_last_window: Number(lastWindow.toFixed(3)),
    rss_mb_idle: Math.round(Math.max(...Object.values(idle))),
    rss_mb_max: Math.round(Math.max(...Object.values(peak))),
    rss_executor_mb_idle: Math.round(idle.executor ?? 0),
    rss_executor_mb_max: Math.round(peak.executor ?? 0),
    rss_executor_mb_max_plain: Math.round(plainPeak.executor ?? 0),
    rss_reconciler_mb_idle: Math.round(idle.reconciler ?? 0),
    rss_reconciler_mb_max: Math.round(peak.reconciler ?? 0),
  });
}

// ---------------------------------------------------------------------------------------------
// map

/** 1 → map(n) → 1: drain seconds (commit → join's outcome) and root's outcome → first item called. */
async function mapRun(r: Runner, prefix: string, n: number) {
  r.bodies.set(`/${prefix}/root`, JSON.stringify(Array.from({ length: n }, (_, i) => i)));
  const req = createWorkflowSchema.parse({
    name: prefix,
    nodes: [
      { id: 'root', target: { url: `${r.targetUrl}/${prefix}/root` } },
      {
        id: 'items',
        kind: 'map',
        dependsOn: ['root'],
        map: { over: 'root', target: { url: `${r.targetUrl}/${prefix}/item` }, maxItems: n },
      },
      { id: 'join', dependsOn: ['items'], target: { url: `${r.targetUrl}/${prefix}/join` } },
    ],
  });
  const plan = planWorkflow(req, r.tenantId, Date.now(), 0);
  if (!(await insertWorkflow(r.pool, plan))) throw new Error('quota');
  const committedAt = (await databaseNow(r.pool)).getTime();
  const state = await finished(r, plan.id, 120_000 + n * 50);
  const done = await nodeFinishes(r, plan.id);
  const items = [...done].filter(([id]) => id.startsWith('items~')).map(([, at]) => at);
  const rootDone = done.get('root')!;
  const firstItem = r.arrivals.get(`/${prefix}/item`)!;
  // Where the drain goes: root's outcome → first item called → last item's outcome → the map
  // node's end → the join's outcome.
  const phases = {
    rootS: (rootDone - committedAt) / 1000,
    firstItemS: (firstItem - rootDone) / 1000,
    itemsS: (Math.max(...items) - firstItem) / 1000,
    mapEndS: (done.get('items')! - Math.max(...items)) / 1000,
    joinS: (done.get('join')! - done.get('items')!) / 1000,
  };
  return { state, drainS: (done.get('join')! - committedAt) / 1000, firstItemS: phases.firstItemS, phases };
}

async function mapPart(r: Runner): Promise<void> {
  const rounds = argv.includes('--rounds') ? ROUNDS : 1;
  // Warm-up: a small one of each.
  await emptyRun(r.pool);
  await fanout(r, 'warm-fixed', 1000, { bodies: true });
  await mapRun(r, 'warm-map', 1000);
  const fixed: number[] = [];
  const mapped: number[] = [];
  const firstItem: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await emptyRun(r.pool);
    const f = await fanout(r, `fixed${i}`, MAP_ITEMS, { bodies: true });
    await emptyRun(r.pool);
    const m = await mapRun(r, `map${i}`, MAP_ITEMS);
    if (f.state !== 'succeeded' || m.state !== 'succeeded')
      throw new Error(`map: runs ${f.state}, ${m.state}`);
    fixed.push(f.drainS);
    mapped.push(m.drainS);
    firstItem.push(m.firstItemS);
    say(
      `  round ${i + 1}: fixed 1 → ${MAP_ITEMS} → 1 ${f.drainS.toFixed(2)} s, 1 → map(${MAP_ITEMS}) → 1 ${m.drainS.toFixed(2)} s (${Object.entries(
        m.phases,
      )
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')})`,
    );
  }
  const ratio = median(mapped) / median(fixed);
  say(
    `map: 1 → map(${MAP_ITEMS}) → 1 against the fixed 1 → ${MAP_ITEMS} → 1, ${EXECUTORS} executor(s), ${rounds} round(s)`,
  );
  say(`  fixed fan-out drained     ${median(fixed).toFixed(2)} s`);
  say(`  map drained               ${median(mapped).toFixed(2)} s   ratio ${ratio.toFixed(2)}`);
  say(`  root's outcome → first item called ${median(firstItem).toFixed(3)} s`);
  Object.assign(metrics, {
    map_items: MAP_ITEMS,
    map_ratio: Number(ratio.toFixed(2)),
    map_s: Number(median(mapped).toFixed(2)),
    map_fixed_s: Number(median(fixed).toFixed(2)),
    map_first_item_s: Number(median(firstItem).toFixed(3)),
  });
}

// ---------------------------------------------------------------------------------------------

say(`workflow bench: parts ${[...PARTS].join(', ')}; ${machine()}`);
if (PARTS.has('submit')) await submitPart();
if (PARTS.has('hop') || PARTS.has('hop202') || PARTS.has('fanout') || PARTS.has('map')) {
  const r = await startRunner();
  try {
    if (PARTS.has('hop')) await hopPart(r);
    if (PARTS.has('hop202')) await hop202Part(r);
    if (PARTS.has('fanout')) await fanoutPart(r);
    if (PARTS.has('map')) await mapPart(r);
    metrics.executors = EXECUTORS;
  } finally {
    await r.close();
  }
}
say(JSON.stringify({ bench: 'workflow', metrics }));
