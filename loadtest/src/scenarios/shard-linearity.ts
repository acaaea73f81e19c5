import { CpuGroup, type CpuGroupReading, cgroupsAvailable, cpuBetween } from '../harness/cgroups.ts';
import { CpuMeter } from '../harness/cpu.ts';
import { SERVICES } from '../harness/fleet.ts';
import { Run, type RunResult } from '../harness/run.ts';
import { VitessCluster } from '../harness/vitess-cluster.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// Throughput per shard with each shard's CPU held constant (issue 32: ≥ 0.85 × linear). On the
// Vitess cluster (`--topology vitess`), twice: 1 shard, then 2. Each dsched shard's mysqld and
// vttablet go into a cgroup of their own with the same CPU quota (`--shard-quota`, thousandths of
// a core); everything else of the run — the services, the sink, vtgate, the dsched_global tablet,
// vtorc, vtctld, etcd — into one more group with a quota of its own (`--rest-quota`), accounted
// apart. A burst of `--tasks` × shards once tasks due at one second (registered before the quotas
// are set); the throughput is the drain's: 80% of the calls over the time between the 10th and the
// 90th percentile of their arrivals. The shards bound it when their groups run at their quota
// (throttled) while the rest's stays below its own. Reported: 2-shard throughput ÷ (2 × 1-shard).

const SHARD_COUNTS = [1, 2] as const;

interface Measured {
  shards: number;
  result: RunResult;
  throughputPerS: number;
  windowMs: number;
  /** Each shard group's use of its quota over the drain (1: at the quota), and the rest's. */
  shardUse: number[];
  shardThrottled: number[];
  restUse: number;
  restThrottled: number;
  cpuMsPerJob: Record<string, number>;
}

/** Calls per second over the middle 80% of the arrivals (ms timestamps). */
export function middleThroughput(arrivals: number[]): { perS: number; spanMs: number } {
  const sorted = [...arrivals].sort((a, b) => a - b);
  if (sorted.length < 10) return { perS: 0, spanMs: 0 };
  const lo = sorted[Math.floor(sorted.length * 0.1)]!;
  const hi = sorted[Math.floor(sorted.length * 0.9)]!;
  const spanMs = Math.max(1, hi - lo);
  return {
    perS: (Math.floor(sorted.length * 0.9) - Math.floor(sorted.length * 0.1)) / (spanMs / 1000),
    spanMs,
  };
}

/** The cluster in the shape of `shards` dsched shards: recreated (about 20 s) when it has another. */
function clusterOf(shards: number, log: (m: string) => void): VitessCluster {
  const cluster = new VitessCluster({ ...process.env, DSCHED_VITESS_SHARDS: String(shards) });
  cluster.up();
  const now = cluster.tablets().filter((t) => t.keyspace === 'dsched').length;
  if (now !== shards) {
    log(`cluster has ${now} dsched shards: recreating it with ${shards} (scripts/vitess cluster reset, up)`);
    cluster.script(['reset']);
    cluster.up();
  }
  return cluster;
}

async function measure(run: Run, shards: number): Promise<Measured> {
  const tasks = run.knob('tasks', 2800) * shards;
  const shardQuota = run.knob('shard-quota', 150);
  const restQuota = run.knob('rest-quota', 1300);
  const cluster = clusterOf(shards, (m) => run.log(m));
  await run.start({ tenants: run.knob('tenants', 32), profiles: { fast: {} } });
  const pids = cluster.pids();
  const due = await registerBurst(run, tasks, { criticalShare: 0.01, margin: 2 });

  // The quotas, once registration is done (it is not measured) and before the burst is due.
  const groups: { group: CpuGroup; uid: number }[] = [];
  const tag = `${process.pid}`;
  for (const t of cluster.tablets().filter((x) => x.keyspace === 'dsched')) {
    const group = CpuGroup.create(`dsched-lt-${tag}-shard-${t.uid}`, shardQuota);
    run.cleanups.push(async () => group.remove());
    group.add([pids.get(`mysqld-${t.uid}`), pids.get(`vttablet-${t.uid}`)].filter((p) => p !== undefined));
    groups.push({ group, uid: t.uid });
  }
  const rest = CpuGroup.create(`dsched-lt-${tag}-rest`, restQuota);
  run.cleanups.push(async () => rest.remove());
  const servicePids = () => run.fleet.instances.flatMap((i) => (i.child?.running() ? [i.child.pid] : []));
  const clusterRest = [...pids]
    .filter(([name]) => !/^(mysqld|vttablet)-(?!100$)/.test(name))
    .map(([, p]) => p);
  rest.add([...servicePids(), run.sink.child.pid, ...clusterRest]);
  run.mark(
    `cgroups: ${groups.map((g) => `shard tablet ${g.uid} (mysqld + vttablet)`).join(', ')} at ${shardQuota / 1000} core each; the rest (services, sink, vtgate, the global tablet, vtorc, vtctld, etcd) at ${restQuota / 1000} core`,
  );

  run.extraChecks.push({
    name: 'the quotas were set before the burst fell due',
    ok: Date.now() < due,
    detail: `${((due - Date.now()) / 1000).toFixed(1)} s to spare`,
  });

  const kinds: Record<string, () => number[]> = {};
  for (const name of SERVICES)
    kinds[name] = () => run.fleet.of(name).flatMap((i) => (i.child?.running() ? [i.child.pid] : []));
  kinds.sink = () => [run.sink.child.pid];
  kinds.vtgate = () => [pids.get('vtgate') ?? -1];
  kinds.global_tablet = () => [pids.get('mysqld-100') ?? -1, pids.get('vttablet-100') ?? -1];
  kinds.shard_mysqld = () => groups.map((g) => pids.get(`mysqld-${g.uid}`) ?? -1);
  kinds.shard_vttablet = () => groups.map((g) => pids.get(`vttablet-${g.uid}`) ?? -1);
  const meter = new CpuMeter(kinds);

  const wait = due - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const before = groups.map((g) => g.group.read());
  const restBefore = rest.read();
  meter.start();
  const startedAt = Date.now();
  await run.drain(due, 300_000);
  const windowMs = Date.now() - startedAt;
  const after = groups.map((g) => g.group.read());
  const restAfter = rest.read();
  const cpu = meter.stop();
  const records = await run.sink.records();
  const { perS } = middleThroughput(records.arrival);
  const result = await run.finish(due, due, () => '');

  const use = (d: CpuGroupReading, quota: number) => d.usageMs / windowMs / (quota / 1000);
  const throttled = (d: CpuGroupReading) => (d.periods > 0 ? d.throttledPeriods / d.periods : 0);
  const shardDeltas = before.map((b, i) => cpuBetween(b, after[i]!));
  const restDelta = cpuBetween(restBefore, restAfter);
  const delivered = Math.max(1, result.metrics.delivered ?? 0);
  const cpuMsPerJob: Record<string, number> = {};
  for (const [kind, ms] of Object.entries(cpu.byKind))
    cpuMsPerJob[kind] = Number((ms / delivered).toFixed(3));
  return {
    shards,
    result,
    throughputPerS: perS,
    windowMs,
    shardUse: shardDeltas.map((d) => use(d, shardQuota)),
    shardThrottled: shardDeltas.map(throttled),
    restUse: use(restDelta, restQuota),
    restThrottled: throttled(restDelta),
    cpuMsPerJob,
  };
}

const round = (n: number, d = 2) => Number(n.toFixed(d));

export const shardLinearity: Scenario = {
  name: 'shard-linearity',
  summary:
    'throughput per shard, each shard (mysqld + vttablet) in a cgroup at the same CPU quota, the rest accounted apart: 1 shard, then 2 (Vitess cluster)',
  knobs: { tasks: 2800, 'shard-quota': 150, 'rest-quota': 1300, tenants: 32 },
  async run(run) {
    if (run.opts.topology !== 'vitess')
      throw new Error(
        'shard-linearity runs on the Vitess cluster: --topology vitess (or DSCHED_MYSQL_TOPOLOGY=vitess)',
      );
    if (!cgroupsAvailable())
      throw new Error('shard-linearity needs the cgroup v1 cpu and cpuacct hierarchies (and root)');
    const measured: Measured[] = [];
    for (const shards of SHARD_COUNTS) {
      // The last count runs on the scenario's own Run (the CLI tears it down and reports it); the
      // others on one of their own, torn down before the next.
      const last = shards === SHARD_COUNTS[SHARD_COUNTS.length - 1];
      const sub = last ? run : new Run({ ...run.opts, scenario: `${run.opts.scenario}-${shards}` });
      try {
        run.mark(`--- ${shards} shard${shards > 1 ? 's' : ''} ---`);
        const m = await measure(sub, shards);
        measured.push(m);
        run.log(
          `${shards} shard(s): ${m.throughputPerS.toFixed(0)} calls/s; shard groups at ${m.shardUse.map((u) => `${(u * 100).toFixed(0)}%`).join(', ')} of their quota, the rest at ${(m.restUse * 100).toFixed(0)}% of its own`,
        );
      } finally {
        if (!last) await sub.teardown();
      }
    }
    const one = measured[0]!;
    const two = measured[1]!;
    const result = two.result;
    const ratio = two.throughputPerS / (2 * Math.max(1e-9, one.throughputPerS));
    const metrics: Record<string, number> = {};
    for (const m of measured) {
      const p = `s${m.shards}_`;
      metrics[`${p}throughput_per_s`] = round(m.throughputPerS, 1);
      metrics[`${p}per_shard_per_s`] = round(m.throughputPerS / m.shards, 1);
      metrics[`${p}delivered`] = m.result.metrics.delivered ?? 0;
      metrics[`${p}lost`] = m.result.metrics.lost ?? 0;
      metrics[`${p}duplicates`] = m.result.metrics.duplicates ?? 0;
      metrics[`${p}drain_s`] = round(m.windowMs / 1000, 1);
      m.shardUse.forEach((u, i) => {
        metrics[`${p}shard${i}_quota_use`] = round(u);
        metrics[`${p}shard${i}_throttled_share`] = round(m.shardThrottled[i] ?? 0);
      });
      metrics[`${p}rest_quota_use`] = round(m.restUse);
      metrics[`${p}rest_throttled_share`] = round(m.restThrottled);
      for (const [kind, ms] of Object.entries(m.cpuMsPerJob))
        metrics[`${p}cpu_ms_per_job_${kind.replaceAll('-', '_')}`] = ms;
    }
    metrics.linearity = round(ratio, 3);
    result.metrics = { ...metrics, ...result.metrics };
    const oneChecks = one.result.checks.map((c) => ({ ...c, name: `1 shard: ${c.name}` }));
    result.checks = [
      ...oneChecks,
      ...result.checks.map((c) => ({ ...c, name: `2 shards: ${c.name}` })),
      {
        name: 'the shards bound the throughput: each shard group at ≥ 85% of its quota in both runs',
        ok: measured.every((m) => m.shardUse.every((u) => u >= 0.85)),
        detail: measured
          .map((m) => `${m.shards}: ${m.shardUse.map((u) => `${(u * 100).toFixed(0)}%`).join(', ')}`)
          .join('; '),
      },
      {
        name: 'the rest did not: its group below 85% of its quota in both runs',
        ok: measured.every((m) => m.restUse < 0.85),
        detail: measured.map((m) => `${m.shards}: ${(m.restUse * 100).toFixed(0)}%`).join('; '),
      },
      {
        name: 'per-shard throughput ≥ 0.85 × linear (2-shard ÷ (2 × 1-shard))',
        ok: ratio >= 0.85,
        detail: `${two.throughputPerS.toFixed(0)} / (2 × ${one.throughputPerS.toFixed(0)}) = ${ratio.toFixed(3)}`,
      },
    ];
    result.notes.push(
      `quotas: each dsched shard (mysqld + vttablet) ${run.knob('shard-quota', 150) / 1000} core; the rest ${run.knob('rest-quota', 1300) / 1000} core; tasks ${run.knob('tasks', 2800)} per shard`,
      `1 shard: ${one.result.headline || `${one.throughputPerS.toFixed(0)} calls/s`}`,
    );
    result.headline = `linearity ${ratio.toFixed(3)}: 1 shard ${one.throughputPerS.toFixed(0)} calls/s, 2 shards ${two.throughputPerS.toFixed(0)} calls/s; shard groups at ${measured.map((m) => m.shardUse.map((u) => `${(u * 100).toFixed(0)}%`).join('/')).join(' and ')} of quota, rest at ${measured.map((m) => `${(m.restUse * 100).toFixed(0)}%`).join(' and ')}`;
    return result;
  },
};
