import { mkdirSync } from 'node:fs';
import { type Analysis, analyze } from '../harness/analyze.ts';
import { CpuMeter, pidsMatching } from '../harness/cpu.ts';
import { DB_PROFILE_ARGS, DbProfile, dbProfileMarkdown, writeDbProfile } from '../harness/db-profile.ts';
import { SERVICES } from '../harness/fleet.ts';
import { resultsDir } from '../harness/paths.ts';
import type { Run, RunResult } from '../harness/run.ts';
import { pollUntil } from '../harness/wait.ts';
import { expectedOccurrences } from '../harness/workload.ts';
import { BullmqPeer } from '../peer/bullmq.ts';
import { GraphilePeer } from '../peer/graphile.ts';
import { OwnPostgres } from '../peer/postgres.ts';
import { RiverPeer } from '../peer/river.ts';
import type { Peer } from '../peer/types.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// The peak, then the same 30,000 calls due at one second through each peer queue, on the same
// machine, to the same sink, in the same run: BullMQ (Redis, not durable), graphile-worker on
// PostgreSQL 15 (durable) in its documented performance configuration and in its defaults, and
// River (Go, PostgreSQL). Each side runs alone: dsched's services are stopped before the first peer
// starts, and each peer's processes before the next. Ratios are ours / theirs: below 1 means dsched
// was faster (drain_ratio and the other unsuffixed ratios are against BullMQ, as before;
// drain_ratio_graphile etc. against the others).
//
// CPU per delivered job, per process kind, from /proc (cpu.ts): ours from the end of registration
// until every job is archived (the drain and the archive tail: what durability costs), a peer's from
// the end of its adds until its last call (its completions written by then, or a batch later). Both
// include the same sink.

export const peakVsPeers: Scenario = {
  name: 'peak-vs-peers',
  aliases: ['peak-vs-bullmq'],
  summary:
    'the peak through dsched, then the same 30,000 calls through BullMQ (Redis), graphile-worker (PostgreSQL, best and defaults) and River (PostgreSQL), side by side',
  knobs: {
    tasks: 30_000,
    workers: 3,
    'peer-concurrency': 256,
    'own-mariadb': 1,
    'db-profile': 0,
    'graphile-workers': 3,
    bullmq: 1,
    graphile: 1,
    'graphile-defaults': 1,
    river: 1,
  },
  async run(run) {
    const tasks = run.knob('tasks', 30_000);
    // The run's own mariadbd by default: its CPU is then this run's alone (the shared server also
    // serves the other checkouts' tests), and --db-profile 1 can turn on its statement profile.
    const profileDb = run.knob('db-profile', 0) === 1;
    const own = profileDb || run.knob('own-mariadb', 1) === 1;
    await run.start({
      tenants: 10,
      profiles: { fast: {} },
      ownMariadb: own,
      ...(profileDb ? { ownMariadbArgs: DB_PROFILE_ARGS(`${run.scratch}mariadb`) } : {}),
    });
    if (!own)
      run.notes.push('MariaDB: the shared server (--own-mariadb 0): its CPU includes whatever else used it');
    const due = await registerBurst(run, tasks, { criticalShare: 0.01 });
    const dbProfile = profileDb ? new DbProfile(run.ownMariadb!.url, `${run.scratch}mariadb`) : undefined;
    await dbProfile?.reset();
    const ourCpu = new CpuMeter(dschedProcesses(run));
    ourCpu.start();
    await run.drain(due, 300_000);
    const drainedAt = Date.now();
    if (dbProfile) {
      const profile = await dbProfile.collect();
      const path = `${resultsDir('peak-vs-peers')}db-profile.md`;
      mkdirSync(resultsDir('peak-vs-peers'), { recursive: true });
      writeDbProfile(path, profile, tasks);
      run.notes.push(`MariaDB statement profile of the drain (performance_schema, slow log at 0 s): ${path}`);
      run.log(dbProfileMarkdown(profile, tasks, 12));
    }
    const archived = await run.settleArchive(120_000, due);
    const archivedAt = Date.now();
    const ours = ourCpu.stop();
    const result = await run.finish(due, due, () => '');
    const delivered = Math.max(1, result.metrics.delivered ?? 0);
    result.metrics.archived_after_drain_s = archived
      ? Number(((archivedAt - drainedAt) / 1000).toFixed(1))
      : -1;
    if (!archived) run.notes.push('not every finished job was archived within 120 s of the drain');
    for (const [kind, ms] of Object.entries(ours.byKind))
      result.metrics[`cpu_ms_per_job_${kind.replaceAll('-', '_')}`] = Number((ms / delivered).toFixed(3));
    result.metrics.cpu_ms_per_job = Number((sum(ours.byKind) / delivered).toFixed(3));
    await run.fleet.stop();
    run.mark('dsched stopped; the peers next, same sink');

    const logDir = `${run.scratch}logs/`;
    const processes = run.knob('workers', 3);
    const concurrency = run.knob('peer-concurrency', 256);
    const common = { concurrency, sinkUrl: run.sink.url, logDir };
    const headline: string[] = [];
    let pg: OwnPostgres | undefined;
    const postgres = async () => {
      pg ??= await OwnPostgres.start(`${run.scratch}postgres`, `${logDir}postgres.log`);
      return pg;
    };
    const starters: [string, () => Promise<Peer>][] = [
      ['bullmq', () => BullmqPeer.start({ processes, ...common })],
      [
        'graphile',
        async () =>
          GraphilePeer.start(await postgres(), 'best', {
            processes: run.knob('graphile-workers', processes),
            ...common,
          }),
      ],
      [
        'graphile-defaults',
        async () =>
          GraphilePeer.start(await postgres(), 'defaults', {
            processes: run.knob('graphile-workers', processes),
            ...common,
          }),
      ],
      ['river', async () => RiverPeer.start(await postgres(), { processes, ...common })],
    ];
    try {
      for (const [knob, start] of starters) {
        if (run.knob(knob, 1) === 0) continue;
        await run.sink.reset();
        run.mark(`${knob}: starting`);
        const peer = await start();
        try {
          const line = await measurePeer(run, peer, tasks, result);
          headline.push(line);
        } finally {
          await peer.stop();
        }
      }
    } finally {
      await pg?.stop();
    }
    const m = result.metrics;
    result.headline = `drain ${m.drain_s} s, critical p99 ${m.critical_p99_ms} ms, CPU ${m.cpu_ms_per_job} ms/job, archived ${m.archived_after_drain_s} s after the drain; ${headline.join('; ')}`;
    return result;
  },
};

/** Runs the burst through one peer; its figures go into `result` under its key. */
async function measurePeer(run: Run, peer: Peer, tasks: number, result: RunResult): Promise<string> {
  const p = await peer.addBurst(tasks, run.tenants.length, 0.01);
  const cpu = new CpuMeter({ ...peer.cpuKinds(), sink: () => [run.sink.child.pid] });
  cpu.start();
  run.mark(
    `${peer.name}: ${tasks} jobs added in ${p.addedInS.toFixed(1)} s, due ${new Date(p.due).toISOString()}`,
  );
  const drained = await pollUntil(async () => (await run.sink.stats()).effects >= tasks, {
    timeoutMs: Math.max(0, p.due - Date.now()) + 300_000,
    intervalMs: 250,
  });
  if (!drained) run.notes.push(`${peer.name} did not deliver every call within 300 s of the due second`);
  const spent = cpu.stop();
  const theirs: Analysis = analyze({
    expected: expectedOccurrences(p.tasks, p.due),
    windowEndMs: p.due,
    records: await run.sink.records(),
    jobs: new Map(),
    cancelled: new Map(),
    originMs: p.due,
    withStores: false,
  });
  result.peers = [...(result.peers ?? []), { name: peer.name, analysis: theirs, originMs: p.due }];
  const m = result.metrics;
  const them = theirs.metrics;
  const k = peer.key;
  const theirDelivered = Math.max(1, them.delivered ?? 0);
  for (const [kind, ms] of Object.entries(spent.byKind))
    m[`${k}_cpu_ms_per_job_${kind}`] = Number((ms / theirDelivered).toFixed(3));
  m[`${k}_cpu_ms_per_job`] = Number((sum(spent.byKind) / theirDelivered).toFixed(3));
  for (const name of [
    'delivered',
    'lost',
    'duplicates',
    'redeliveries',
    'drain_s',
    'critical_p99_ms',
    'other_p99_ms',
    'p99_ms',
  ])
    m[`${k}_${name}`] = them[name] ?? -1;
  // The sink's own cost in the peer's phase.
  const sinkStats = await run.sink.stats();
  m[`${k}_sink_us_per_call`] = Number(((sinkStats.cpuMs * 1000) / Math.max(1, sinkStats.calls)).toFixed(1));
  m[`${k}_sink_elu_max`] = Number(sinkStats.eluMax1s.toFixed(2));
  const ratio = (a = 0, b = 0) => (b > 0 ? Number((a / b).toFixed(2)) : -1);
  // Against BullMQ the ratios keep their first names (drain_ratio, ...); against the others, suffixed.
  const suffix = k === 'bullmq' ? '' : `_${k}`;
  m[`drain_ratio${suffix}`] = ratio(m.drain_s, them.drain_s);
  m[`p99_ratio${suffix}`] = ratio(m.p99_ms, them.p99_ms);
  m[`critical_p99_ratio${suffix}`] = ratio(m.critical_p99_ms, them.critical_p99_ms);
  m[`cpu_ratio${suffix}`] = ratio(m.cpu_ms_per_job, m[`${k}_cpu_ms_per_job`]);
  result.notes.push(
    `${peer.name}: ${peer.setup}. ${them.delivered}/${them.expected} delivered, ${them.lost} lost, ${them.duplicates} duplicate effects, ${them.redeliveries} redeliveries (reported, not judged: the verdict is dsched's); CPU ${Object.entries(
      spent.byKind,
    )
      .map(([kind, ms]) => `${kind} ${(ms / theirDelivered).toFixed(3)}`)
      .join(', ')} ms/job`,
  );
  return `${peer.name} drain ${them.drain_s} s (ratio ${m[`drain_ratio${suffix}`]}), critical p99 ${them.critical_p99_ms} ms (ratio ${m[`critical_p99_ratio${suffix}`]}), CPU ${m[`${k}_cpu_ms_per_job`]} ms/job (ratio ${m[`cpu_ratio${suffix}`]})`;
}

const sum = (byKind: Record<string, number>) => Object.values(byKind).reduce((a, b) => a + b, 0);

/** dsched's side: each service by name, the run's MariaDB (by its port), Cassandra, the sink. */
function dschedProcesses(run: Run): Record<string, () => number[]> {
  const kinds: Record<string, () => number[]> = {};
  for (const name of SERVICES)
    kinds[name] = () => run.fleet.of(name).flatMap((i) => (i.child?.running() ? [i.child.pid] : []));
  const port = new URL(run.stores.databaseUrl).port || '3306';
  kinds.mariadb = () =>
    pidsMatching(`--port=${port}`).filter((pid) => pidsMatching('mariadbd').includes(pid));
  kinds.cassandra = () => pidsMatching('org.apache.cassandra.service.CassandraDaemon');
  kinds.sink = () => [run.sink.child.pid];
  return kinds;
}
