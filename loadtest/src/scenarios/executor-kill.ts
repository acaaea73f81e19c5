import type { Run } from '../harness/run.ts';
import { finishWindow, lossHeadline, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// kill -9 an executor while it holds claims and calls in flight: its jobs come back when their
// claim lease expires (reconciler) and are delivered again with the same Idempotency-Key, which
// the sink's idempotent effect absorbs. Nothing may be lost, no effect applied twice.

async function executorKill(
  run: Run,
  tasks: number,
  seconds: number,
  restartAfterMs: number,
  drainTimeoutMs: number,
) {
  // Calls take 50-300 ms, so a killed executor always has calls in flight.
  await run.start({ tenants: 5, profiles: { work: { delayMs: [50, 300] } } });
  const w = await registerSpread(run, tasks, seconds, { profile: 'work', criticalShare: 0.01 });
  // Counted from the first due time: registration may end well before it (dueAfterRegistering's margin).
  const untilOrigin = Math.max(0, w.origin - Date.now());
  if (await run.waitEffects(Math.floor(tasks * 0.3), untilOrigin + (seconds + 60) * 1000)) {
    const victim = run.fleet.of('executor')[0]!;
    run.mark(`kill -9 ${victim.id} with ~30% delivered`);
    await run.fleet.kill(victim, { restartAfterMs });
  } else run.notes.push('30% was never delivered: the kill did not happen');
  return finishWindow(run, w, lossHeadline, drainTimeoutMs);
}

export const executorKillScenario: Scenario = {
  name: 'executor-kill',
  summary: 'kill -9 one of three executors mid-run (calls in flight); restarted 10 s later',
  knobs: { tasks: 6000, seconds: 60 },
  run: (run) => executorKill(run, run.knob('tasks', 6000), run.knob('seconds', 60), 10_000, 300_000),
};

export const smoke: Scenario = {
  name: 'smoke',
  summary: 'the CI smoke: 3,000 jobs over 20 s, one executor kill -9 (no-loss regression check)',
  knobs: { tasks: 3000, seconds: 20 },
  // A lost job never drains: 90 s (lease 15 s + reconciler) bounds how long CI waits to say so.
  run: (run) => executorKill(run, run.knob('tasks', 3000), run.knob('seconds', 20), 3_000, 90_000),
};
