import { analyze } from '../harness/analyze.ts';
import { pollUntil } from '../harness/wait.ts';
import { expectedOccurrences } from '../harness/workload.ts';
import { BullmqPeer } from '../peer/bullmq.ts';
import { registerBurst } from './peak.ts';
import type { Scenario } from './types.ts';

// The peak, then the same 30,000 calls due at one second through BullMQ, on the same machine, to
// the same sink, in the same run. dsched's services are stopped before BullMQ starts, so each has
// the machine to itself. Ratios are ours / BullMQ: below 1 means dsched was faster.

export const peakVsBullmq: Scenario = {
  name: 'peak-vs-bullmq',
  summary: 'the peak through dsched, then the same 30,000 calls through BullMQ (Redis), side by side',
  knobs: { tasks: 30_000, workers: 3, concurrency: 256 },
  async run(run) {
    const tasks = run.knob('tasks', 30_000);
    await run.start({ tenants: 10, profiles: { fast: {} } });
    const due = await registerBurst(run, tasks, { criticalShare: 0.01 });
    await run.drain(due, 300_000);
    const result = await run.finish(due, due, () => '');
    await run.fleet.stop();
    run.mark('dsched stopped; BullMQ next, same sink');

    await run.sink.reset();
    const logs = `${run.scratch}logs/`;
    const peer = await BullmqPeer.start(logs);
    try {
      await peer.startWorkers(run.knob('workers', 3), run.knob('concurrency', 256), run.sink.url, logs);
      const p = await peer.addBurst(tasks, run.tenants.length, 0.01);
      run.mark(
        `BullMQ: ${tasks} delayed jobs added in ${p.addedInS.toFixed(1)} s, due ${new Date(p.due).toISOString()}`,
      );
      const drained = await pollUntil(async () => (await run.sink.stats()).effects >= tasks, {
        timeoutMs: Math.max(0, p.due - Date.now()) + 300_000,
        intervalMs: 250,
      });
      if (!drained) run.notes.push('BullMQ did not deliver every call within 300 s of the due second');
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
      const ours = result.metrics;
      const them = theirs.metrics;
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
      result.metrics.drain_ratio = ratio(ours.drain_s, them.drain_s);
      result.metrics.p99_ratio = ratio(ours.p99_ms, them.p99_ms);
      result.metrics.critical_p99_ratio = ratio(ours.critical_p99_ms, them.critical_p99_ms);
      result.headline = `drain ${ours.drain_s} s vs BullMQ ${them.drain_s} s (drain_ratio ${result.metrics.drain_ratio}), p99 ${ours.p99_ms} vs ${them.p99_ms} ms (p99_ratio ${result.metrics.p99_ratio})`;
      result.notes.push(
        `BullMQ peer: ${them.delivered}/${them.expected} delivered, ${them.lost} lost, ${them.duplicates} duplicate effects (reported, not judged: the verdict is dsched's)`,
      );
    } finally {
      await peer.stop();
    }
    return result;
  },
};
