import mysql from 'mysql2/promise';
import { CpuMeter, processCpuMs } from '../harness/cpu.ts';
import { SERVICES } from '../harness/fleet.ts';
import type { Run } from '../harness/run.ts';
import { sleep } from '../harness/wait.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// What the router costs (issue 32: "the router's cost per job beside direct MySQL"), on the Vitess
// cluster (`--topology vitess`), in one run:
// 1. A burst of `--tasks` once tasks due at one second, drained through vtgate: the CPU per job of
//    vtgate beside the shards' mysqld and vttablet, the global tablet and the services (/proc).
// 2. Then, on the same rows, a claim-shaped transaction — lock one row by its key (SELECT … FOR
//    UPDATE), update it, commit: four round trips, as a claim or an outcome makes — `--probes`
//    times through vtgate and as many straight to the owning shard's mysqld (its socket, past
//    vtgate and vttablet), alternated one by one on one connection each: the latency each way and
//    what vtgate and the shard's vttablet spent per transaction.

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

async function claimShaped(conn: mysql.Connection, partition: number, id: Buffer): Promise<number> {
  const t0 = process.hrtime.bigint();
  await conn.query('BEGIN');
  await conn.query('SELECT id, version FROM tasks WHERE `partition` = ? AND id = ? FOR UPDATE', [
    partition,
    id,
  ]);
  await conn.query('UPDATE tasks SET updated_at = NOW(3) WHERE `partition` = ? AND id = ?', [partition, id]);
  await conn.query('COMMIT');
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export const routerCost: Scenario = {
  name: 'router-cost',
  summary:
    'vtgate’s CPU per job in a drained burst beside the shards’ and the services’, then a claim-shaped transaction through vtgate vs straight to the shard’s mysqld, alternated (Vitess cluster)',
  knobs: { tasks: 3000, probes: 400, tenants: 32 },
  async run(run) {
    if (run.opts.topology !== 'vitess')
      throw new Error(
        'router-cost runs on the Vitess cluster: --topology vitess (or DSCHED_MYSQL_TOPOLOGY=vitess)',
      );
    const tasks = run.knob('tasks', 3000);
    await run.start({ tenants: run.knob('tenants', 32), profiles: { fast: {} } });
    const cluster = run.vitess!;
    const pids = cluster.pids();
    const shardTablets = cluster.tablets().filter((t) => t.keyspace === 'dsched');
    const due = await registerBurst(run, tasks, { criticalShare: 0.01, margin: 2 });

    const kinds: Record<string, () => number[]> = {};
    for (const name of SERVICES)
      kinds[name] = () => run.fleet.of(name).flatMap((i) => (i.child?.running() ? [i.child.pid] : []));
    kinds.sink = () => [run.sink.child.pid];
    kinds.vtgate = () => [pids.get('vtgate') ?? -1];
    kinds.shard_vttablet = () => shardTablets.map((t) => pids.get(`vttablet-${t.uid}`) ?? -1);
    kinds.shard_mysqld = () => shardTablets.map((t) => pids.get(`mysqld-${t.uid}`) ?? -1);
    kinds.global_vttablet = () => [pids.get('vttablet-100') ?? -1];
    kinds.global_mysqld = () => [pids.get('mysqld-100') ?? -1];
    const meter = new CpuMeter(kinds);
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait);
    meter.start();
    await run.drain(due, 300_000);
    const archived = await run.settleArchive(60_000, due);
    const cpu = meter.stop();
    const result = await run.finish(due, due, () => '');
    if (!archived)
      run.notes.push('not every finished job was archived within 60 s: CPU per job leaves the rest out');
    const delivered = Math.max(1, result.metrics.delivered ?? 0);
    const perJob: Record<string, number> = {};
    for (const [kind, ms] of Object.entries(cpu.byKind)) perJob[kind] = ms / delivered;
    const total = Object.values(perJob).reduce((a, b) => a + b, 0);
    const shard = (perJob.shard_mysqld ?? 0) + (perJob.shard_vttablet ?? 0);

    // 2. The latency probe, on tasks of the first shard (their rows stay after the run).
    const tablet = shardTablets[0]!;
    const direct = await mysql.createConnection({
      socketPath: cluster.tabletSocket(tablet.uid),
      user: 'vt_app',
      database: 'vt_dsched',
    });
    const gate = await mysql.createConnection(cluster.url);
    const probes = run.knob('probes', 400);
    const viaGate: number[] = [];
    const straight: number[] = [];
    let gateCpuMs = 0;
    let tabletCpuMs = 0;
    try {
      const [rows] = await direct.query<mysql.RowDataPacket[]>('SELECT id, `partition` FROM tasks LIMIT 200');
      if (rows.length === 0) throw new Error(`no task on tablet ${tablet.uid} to probe with`);
      await gate.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
      // Warm both (plans, buffers), then alternate.
      for (let i = 0; i < 20; i++) {
        const r = rows[i % rows.length]!;
        await claimShaped(gate, Number(r.partition), r.id as Buffer);
        await claimShaped(direct, Number(r.partition), r.id as Buffer);
      }
      const gatePid = pids.get('vtgate') ?? -1;
      const tabletPid = pids.get(`vttablet-${tablet.uid}`) ?? -1;
      for (let i = 0; i < probes; i++) {
        const r = rows[i % rows.length]!;
        const g0 = processCpuMs(gatePid) ?? 0;
        const v0 = processCpuMs(tabletPid) ?? 0;
        viaGate.push(await claimShaped(gate, Number(r.partition), r.id as Buffer));
        gateCpuMs += (processCpuMs(gatePid) ?? 0) - g0;
        tabletCpuMs += (processCpuMs(tabletPid) ?? 0) - v0;
        straight.push(await claimShaped(direct, Number(r.partition), r.id as Buffer));
      }
    } finally {
      await direct.end();
      await gate.end();
    }
    viaGate.sort((a, b) => a - b);
    straight.sort((a, b) => a - b);
    const g50 = percentile(viaGate, 0.5);
    const d50 = percentile(straight, 0.5);
    const m: Record<string, number> = {
      vtgate_cpu_ms_per_job: Number((perJob.vtgate ?? 0).toFixed(3)),
      shard_cpu_ms_per_job: Number(shard.toFixed(3)),
      shard_mysqld_cpu_ms_per_job: Number((perJob.shard_mysqld ?? 0).toFixed(3)),
      shard_vttablet_cpu_ms_per_job: Number((perJob.shard_vttablet ?? 0).toFixed(3)),
      all_cpu_ms_per_job: Number(total.toFixed(3)),
      vtgate_over_mysqld: Number(
        ((perJob.vtgate ?? 0) / Math.max(1e-9, perJob.shard_mysqld ?? 0)).toFixed(3),
      ),
      vtgate_share_of_all: Number(((perJob.vtgate ?? 0) / Math.max(1e-9, total)).toFixed(3)),
      probe_vtgate_p50_ms: Number(g50.toFixed(3)),
      probe_vtgate_p99_ms: Number(percentile(viaGate, 0.99).toFixed(3)),
      probe_direct_p50_ms: Number(d50.toFixed(3)),
      probe_direct_p99_ms: Number(percentile(straight, 0.99).toFixed(3)),
      probe_added_p50_ms: Number((g50 - d50).toFixed(3)),
      probe_latency_ratio_p50: Number((g50 / Math.max(1e-9, d50)).toFixed(3)),
      probe_vtgate_cpu_ms_per_tx: Number((gateCpuMs / Math.max(1, probes)).toFixed(3)),
      probe_vttablet_cpu_ms_per_tx: Number((tabletCpuMs / Math.max(1, probes)).toFixed(3)),
    };
    for (const [kind, ms] of Object.entries(perJob))
      m[`cpu_ms_per_job_${kind.replaceAll('-', '_')}`] = Number(ms.toFixed(3));
    result.metrics = { ...m, ...result.metrics };
    result.notes.push(
      `probe: BEGIN; SELECT … FOR UPDATE by (partition, id); UPDATE; COMMIT on tasks of tablet ${tablet.uid} (${tablet.keyspace}/${tablet.shard}), ${probes} each way, alternated; direct = its mysqld's socket as vt_app`,
      'probe CPU per transaction from /proc at 10 ms ticks, summed over the probes: vtgate’s includes its background work (health checks) meanwhile',
    );
    result.headline =
      `vtgate ${m.vtgate_cpu_ms_per_job} ms CPU per job (${(m.vtgate_share_of_all! * 100).toFixed(0)}% of all, ${m.vtgate_over_mysqld}× the shards’ mysqld); ` +
      `claim-shaped transaction p50 ${m.probe_vtgate_p50_ms} ms through vtgate vs ${m.probe_direct_p50_ms} ms direct (+${m.probe_added_p50_ms} ms, ×${m.probe_latency_ratio_p50})`;
    return result;
  },
};
