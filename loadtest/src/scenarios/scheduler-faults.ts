import type { RowDataPacket } from '@dsched/mysql/pool';
import { leadingScheduler, MovableClock } from '../harness/faults.ts';
import type { Run } from '../harness/run.ts';
import { pollUntil, sleep } from '../harness/wait.ts';
import { burst } from '../harness/workload.ts';
import { dueAfterRegistering, finishWindow, registerCron, type Window } from './common.ts';
import type { Scenario } from './types.ts';

// Faults of the scheduler: its leader killed mid-tick, two of them with no lease between them,
// and its host's wall clock moved. Each runs a cron load (every minute, seconds spread) and, where
// contention matters, a burst of once tasks due at one second, so a tick has a big due set.

/**
 * Cron load for `minutes`, plus `burstTasks` once tasks due at least `burstAfterS` seconds into it,
 * and late enough that the whole burst is registered before the scheduler's lookahead (10 s)
 * reaches it: then one tick materialises all of it, in many batches.
 */
async function cronWithBurst(
  run: Run,
  cronTasks: number,
  minutes: number,
  burstTasks: number,
  burstAfterS: number,
): Promise<Window & { burstAt: number }> {
  const w = await registerCron(run, cronTasks, minutes);
  const earliest = Math.ceil((Date.now() + burstAfterS * 1000) / 1000) * 1000;
  const burstAt =
    burstTasks > 0 ? Math.max(earliest, (await dueAfterRegistering(run, burstTasks)) + 12_000) : earliest;
  if (burstTasks > 0) {
    const reg = await run.register(
      // Its own sink profile (answered like 'fast'), so its lateness is reported apart from cron's.
      burst(burstTasks, burstAt, { tenants: run.tenants.length, criticalShare: 0.01, profile: 'burst' }),
    );
    run.mark(`burst of ${burstTasks} due at +${((burstAt - w.origin) / 1000).toFixed(0)} s`);
    run.extraChecks.push({
      name: 'burst registered before its due second',
      ok: reg.finishedAt < burstAt - 10_000,
      detail: `${((burstAt - reg.finishedAt) / 1000).toFixed(1)} s to spare`,
    });
  }
  return { ...w, end: Math.max(w.end, burstAt), burstAt };
}

async function jobsDueAt(run: Run, at: number): Promise<number> {
  const [rows] = await run.view.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM jobs WHERE scheduled_for = ?',
    [new Date(at)],
  );
  return Number(rows[0]?.n ?? 0);
}

export const schedulerKill: Scenario = {
  name: 'scheduler-kill',
  summary: 'kill -9 the leading scheduler (of 3) mid-tick, while it materialises a 10,000-job burst',
  knobs: { cron: 1200, minutes: 2, burst: 10_000 },
  async run(run) {
    await run.start({ tenants: 5, profiles: { fast: {} }, replicas: { scheduler: 3 } });
    const burstTasks = run.knob('burst', 10_000);
    const w = await cronWithBurst(run, run.knob('cron', 1200), run.knob('minutes', 2), burstTasks, 40);
    // Mid-tick: as soon as the first rows of the burst appear, the tick is inserting them.
    let atKill = -1;
    const started = await pollUntil(
      async () => {
        atKill = await jobsDueAt(run, w.burstAt);
        return atKill > 0;
      },
      {
        timeoutMs: Math.max(1000, w.burstAt - Date.now() + 5000),
        intervalMs: 25,
      },
    );
    const leader = await leadingScheduler(run.fleet, run.view);
    if (started && leader) {
      run.mark(`kill -9 ${leader.id} (leader) mid-tick: ${atKill} of ${burstTasks} burst jobs materialised`);
      await run.fleet.kill(leader);
      const after = await jobsDueAt(run, w.burstAt);
      run.notes.push(`burst jobs materialised: ${atKill} when the kill was sent, ${after} right after it`);
      if (atKill >= burstTasks)
        run.notes.push('the kill landed after the whole burst was materialised (not mid-tick)');
      void sleep(20_000).then(() => run.fleet.restart(leader));
    } else run.notes.push('the burst was never seen materialising: no kill');
    // And once more, the new leader, at an ordinary tick.
    await sleep(25_000);
    const next = await leadingScheduler(run.fleet, run.view);
    if (next) {
      run.mark(`kill -9 ${next.id} (leader) at an ordinary tick`);
      await run.fleet.kill(next, { restartAfterMs: 10_000 });
    }
    const result = await finishWindow(
      run,
      w,
      (m) =>
        `cron occurrences p99 ${m.fast_p99_ms} ms, max ${m.fast_max_ms} ms (lease TTL + tick bounds a takeover); the burst p99 ${m.burst_p99_ms} ms`,
    );
    result.metrics.burst_jobs_at_kill = atKill;
    return result;
  },
};

export const schedulerNoLeases: Scenario = {
  name: 'scheduler-no-leases',
  summary:
    'two schedulers with leases switched off (SCHEDULER_LEASES=off) over the same cron tasks and burst',
  knobs: { cron: 3000, minutes: 3, burst: 10_000 },
  async run(run) {
    await run.start({
      tenants: 5,
      profiles: { fast: {} },
      replicas: { scheduler: 2 },
      // The scheduler's test-only switch; a build without leases ignores it (and has none anyway).
      env: { SCHEDULER_LEASES: 'off' },
    });
    const w = await cronWithBurst(
      run,
      run.knob('cron', 3000),
      run.knob('minutes', 3),
      run.knob('burst', 10_000),
      45,
    );
    return finishWindow(
      run,
      w,
      (m) =>
        `${m.duplicate_jobs} duplicate job rows, ${m.duplicates} duplicate effects over ${m.expected} occurrences`,
    );
  },
};

export const clockSkew: Scenario = {
  name: 'clock-skew',
  summary: "the schedulers' host clocks moved +5 min and -5 min mid-run (libfaketime), then back",
  knobs: { cron: 3000, minutes: 4 },
  async run(run) {
    const clocks = [0, 1].map((i) => new MovableClock(`${run.scratch}clock-${i}.rc`));
    await run.start({
      tenants: 5,
      profiles: { fast: {} },
      replicas: { scheduler: 2 },
      envFor: (name, index) => (name === 'scheduler' ? (clocks[index]?.env ?? {}) : {}),
    });
    const w = await registerCron(run, run.knob('cron', 3000), run.knob('minutes', 4));
    const phase = (w.end - Date.now()) / 4;
    const move = (a: number, b: number) => {
      clocks[0]?.set(a);
      clocks[1]?.set(b);
      const seen = clocks.map((c) => c.observedOffsetS());
      run.mark(`clock: scheduler-0 ${a >= 0 ? '+' : ''}${a} s, scheduler-1 ${b >= 0 ? '+' : ''}${b} s`);
      run.extraChecks.push({
        name: `clocks really moved to ${a}/${b} s`,
        ok: seen[0] === a && seen[1] === b,
        detail: `a process under each clock reads ${seen.join(' / ')} s`,
      });
    };
    await sleep(phase);
    move(300, -300);
    await sleep(phase);
    move(-300, 300);
    await sleep(phase);
    move(0, 0);
    return finishWindow(
      run,
      w,
      (m) => `${m.early_calls} early, ${m.unexpected_occurrences} unexpected, p99 lateness ${m.p99_ms} ms`,
    );
  },
};
