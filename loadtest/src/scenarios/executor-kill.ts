import type { Run } from '../harness/run.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
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

/**
 * kill -9 an executor with calls in flight and keep it down, then kill -9 every reconciler as
 * soon as they start giving its expired claims back (the first of its claims released), and
 * start them again 10 s later: the release is fenced by attempt, so a batch cut short by the kill
 * is redone by the next sweep and no job is released twice or left running.
 */
async function reconcilerKill(run: Run, tasks: number, seconds: number, drainTimeoutMs: number) {
  await run.start({ tenants: 5, profiles: { work: { delayMs: [50, 300] } } });
  const w = await registerSpread(run, tasks, seconds, { profile: 'work', criticalShare: 0.01 });
  const untilOrigin = Math.max(0, w.origin - Date.now());
  if (await run.waitEffects(Math.floor(tasks * 0.3), untilOrigin + (seconds + 60) * 1000)) {
    const victim = run.fleet.of('executor')[0]!;
    const owner = victim.id;
    const held = (await run.view.claimsOf(owner)).length;
    run.mark(`kill -9 ${owner} with ~30% delivered, ${held} claims held; it stays down 60 s`);
    void run.fleet.kill(victim, { restartAfterMs: 60_000 });
    // Its lease is 15 s (EXECUTOR_LEASE_S); the reconcilers sweep every second.
    let left = held;
    const releasing = await pollUntil(
      async () => {
        left = (await run.view.claimsOf(owner)).length;
        return left < held;
      },
      { timeoutMs: 45_000, intervalMs: 50 },
    );
    if (held > 0 && releasing) {
      const reconcilers = run.fleet.of('reconciler');
      run.mark(
        `kill -9 ${reconcilers.map((r) => r.id).join(', ')} while they release ${owner}'s expired claims (${left} of ${held} left)`,
      );
      await Promise.all(reconcilers.map((r) => run.fleet.kill(r)));
      run.notes.push(`${owner}'s claims still running right after the reconcilers' kill: ${left} of ${held}`);
      void sleep(10_000).then(() => Promise.all(reconcilers.map((r) => run.fleet.restart(r))));
    } else
      run.notes.push(
        `no claim of ${owner} was released within 45 s (${held} held): the reconcilers were not killed`,
      );
  } else run.notes.push('30% was never delivered: the kills did not happen');
  return finishWindow(run, w, lossHeadline, drainTimeoutMs);
}

export const reconcilerKillScenario: Scenario = {
  name: 'reconciler-kill',
  summary:
    'kill -9 an executor (calls in flight), then every reconciler while they release its expired claims; restarted 10 s later',
  knobs: { tasks: 6000, seconds: 60 },
  run: (run) => reconcilerKill(run, run.knob('tasks', 6000), run.knob('seconds', 60), 300_000),
};
