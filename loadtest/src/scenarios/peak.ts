import type { Run } from '../harness/run.ts';
import { burst } from '../harness/workload.ts';
import { dueAfterRegistering } from './common.ts';
import type { Scenario } from './types.ts';

/**
 * Registers `tasks` once tasks due at one whole second (far enough ahead that registration ends
 * first, judged from a warm-up batch) and returns that second.
 */
export async function registerBurst(
  run: Run,
  tasks: number,
  o: {
    criticalShare: number;
    profile?: string;
    retry?: { maxAttempts: number; initialBackoffMs: number; maxBackoffMs: number };
    jitterS?: number;
    /** The registration-time margin of dueAfterRegistering (default 1.3). */
    margin?: number;
  },
): Promise<number> {
  const { margin: slack, ...plan } = o;
  const due = await dueAfterRegistering(run, tasks, slack);
  run.mark(`due second: ${new Date(due).toISOString()}`);
  const reg = await run.register(burst(tasks, due, { tenants: run.tenants.length, ...plan }));
  const margin = due - reg.finishedAt;
  run.extraChecks.push({
    name: 'registration ended before the due second',
    ok: margin > 0,
    detail: `${(margin / 1000).toFixed(1)} s to spare`,
  });
  return due;
}

export const peak: Scenario = {
  name: 'peak',
  summary:
    'the 09:00 peak: 30,000 tasks due at the same second, 1% critical; --jitter S gives the others a flexible window',
  knobs: { tasks: 30_000, jitter: 0, tenants: 10 },
  async run(run) {
    const tasks = run.knob('tasks', 30_000);
    // With a window, the non-critical tasks spread their calls over [09:00, 09:00 + S) themselves.
    const jitterS = run.knob('jitter', 0);
    // More tenants register faster where a task's creation holds its tenant's row for long (through
    // vtgate, where the quota's update and the task's insert commit on two keyspaces).
    await run.start({ tenants: run.knob('tenants', 10), profiles: { fast: {} } });
    const due = await registerBurst(run, tasks, { criticalShare: 0.01, ...(jitterS > 0 ? { jitterS } : {}) });
    await run.drain(due + jitterS * 1000, 300_000);
    return run.finish(
      due,
      due,
      (m) =>
        `drain ${m.drain_s} s, critical p99 ${m.critical_p99_ms} ms, other p99 ${m.other_p99_ms} ms, ` +
        `peak ${m.peak_calls_per_s} calls/s, arrivals p5-p95 over ${m.arrival_spread_s} s`,
    );
  },
};
