import { analyze } from '../harness/analyze.ts';
import { CpuMeter, pidsMatching } from '../harness/cpu.ts';
import { SERVICES } from '../harness/fleet.ts';
import type { Run } from '../harness/run.ts';
import { pollUntil } from '../harness/wait.ts';
import { expectedOccurrences } from '../harness/workload.ts';
import { BullmqPeer } from '../peer/bullmq.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// The peak, then the same 30,000 calls due at one second through BullMQ, on the same machine, to
// the same sink, in the same run. dsched's services are stopped before BullMQ starts, so each has
// the machine to itself. Ratios are ours / BullMQ: below 1 means dsched was faster.
//
// CPU per delivered job, per process kind, from /proc (cpu.ts): ours from the end of registration
// until every job is archived (the drain and the archive tail: what durability costs), BullMQ's from
// the end of its adds until its last call. Both include the same sink.

export const peakVsBullmq: Scenario = {
  name: 'peak-vs-bullmq',
  summary: 'the peak through dsched, then the same 30,000 calls through BullMQ (Redis), side by side',
  knobs: { tasks: 30_000, workers: 3, concurrency: 256 },
  async run(run) {
    const tasks = run.knob('tasks', 30_000);
    await run.start({ tenants: 10, profiles: { fast: {} } });
    const due = await registerBurst(run, tasks, { criticalShare: 0.01 });
    const ourCpu = new CpuMeter(dschedProcesses(run));
    ourCpu.start();
    await run.drain(due, 300_000);
    const drainedAt = Date.now();
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
    run.mark('dsched stopped; BullMQ next, same sink');

    await run.sink.reset();
    const logs = `${run.scratch}logs/`;
    const peer = await BullmqPeer.start(logs);
    try {
      await peer.startWorkers(run.knob('workers', 3), run.knob('concurrency', 256), run.sink.url, logs);
      const p = await peer.addBurst(tasks, run.tenants.length, 0.01);
      const pids = peer.pids;
      const theirCpu = new CpuMeter({
        bullmq_worker: () => pids.workers,
        redis: () => pids.redis,
        sink: () => [run.sink.child.pid],
      });
      theirCpu.start();
      run.mark(
        `BullMQ: ${tasks} delayed jobs added in ${p.addedInS.toFixed(1)} s, due ${new Date(p.due).toISOString()}`,
      );
      const drained = await pollUntil(async () => (await run.sink.stats()).effects >= tasks, {
        timeoutMs: Math.max(0, p.due - Date.now()) + 300_000,
        intervalMs: 250,
      });
      if (!drained) run.notes.push('BullMQ did not deliver every call within 300 s of the due second');
      const theirs_cpu = theirCpu.stop();
      const expected = expectedOccurrences(p.tasks, p.due);
      const theirs = analyze({
        expected,
        windowEndMs: p.due,
        records: await run.sink.records(),
        jobs: new Map(),
        cancelled: new Map(),
        originMs: p.due,
        withStores: false,
      });
      result.peer = { name: 'BullMQ', analysis: theirs, originMs: p.due };
      const them = theirs.metrics;
      const theirDelivered = Math.max(1, them.delivered ?? 0);
      for (const [kind, ms] of Object.entries(theirs_cpu.byKind))
        result.metrics[`bullmq_cpu_ms_per_job_${kind}`] = Number((ms / theirDelivered).toFixed(3));
      result.metrics.bullmq_cpu_ms_per_job = Number((sum(theirs_cpu.byKind) / theirDelivered).toFixed(3));
      for (const k of [
        'delivered',
        'lost',
        'duplicates',
        'drain_s',
        'critical_p99_ms',
        'other_p99_ms',
        'p99_ms',
      ])
        result.metrics[`bullmq_${k}`] = them[k] ?? -1;
      // The sink's own cost in BullMQ's phase (faster, so closer to the sink's limits).
      const sinkStats = await run.sink.stats();
      result.metrics.bullmq_sink_us_per_call = Number(
        ((sinkStats.cpuMs * 1000) / Math.max(1, sinkStats.calls)).toFixed(1),
      );
      result.metrics.bullmq_sink_elu_max = Number(sinkStats.eluMax1s.toFixed(2));
      const ratio = (a = 0, b = 0) => (b > 0 ? Number((a / b).toFixed(2)) : -1);
      const m = result.metrics;
      m.drain_ratio = ratio(m.drain_s, them.drain_s);
      m.p99_ratio = ratio(m.p99_ms, them.p99_ms);
      m.critical_p99_ratio = ratio(m.critical_p99_ms, them.critical_p99_ms);
      m.cpu_ratio = ratio(m.cpu_ms_per_job, m.bullmq_cpu_ms_per_job);
      result.headline = `drain ${m.drain_s} s vs BullMQ ${them.drain_s} s (drain_ratio ${m.drain_ratio}), p99 ${m.p99_ms} vs ${them.p99_ms} ms (p99_ratio ${m.p99_ratio}), CPU ${m.cpu_ms_per_job} vs ${m.bullmq_cpu_ms_per_job} ms/job (cpu_ratio ${m.cpu_ratio}), archived ${m.archived_after_drain_s} s after the drain`;
      result.notes.push(
        `BullMQ peer: ${them.delivered}/${them.expected} delivered, ${them.lost} lost, ${them.duplicates} duplicate effects (reported, not judged: the verdict is dsched's)`,
      );
    } finally {
      await peer.stop();
    }
    return result;
  },
};

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
