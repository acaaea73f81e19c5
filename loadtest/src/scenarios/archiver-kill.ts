import { pollUntil, sleep } from '../harness/wait.ts';
import { finishWindow, lossHeadline, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// The archiver killed between its two steps: it has written a job to Cassandra and not yet
// deleted it from MySQL. The harness watches for exactly that (the oldest succeeded job in MySQL
// already present in history) and kills every archiver -9 at that moment, several times. After
// restarts, every job must be in history once and gone from MySQL; none lost. Besides, archiver-0
// runs its first `failpoint` starts with the archiver's own ARCHIVER_FAILPOINT=after-history-write
// (it SIGKILLs itself after its first batch reached Cassandra); a build without it ignores it.

export const archiverKill: Scenario = {
  name: 'archiver-kill',
  summary:
    'archivers killed -9 between the Cassandra write and the MySQL delete (5 times by the harness, 3 by their own failpoint)',
  knobs: { tasks: 6000, seconds: 60, kills: 5, failpoint: 3 },
  async run(run) {
    const failpointStarts = run.knob('failpoint', 3);
    await run.start({
      tenants: 5,
      profiles: { fast: {} },
      env: { ARCHIVER_BATCH_SIZE: '500' },
      envFor: (name, index, generation): Record<string, string> =>
        name === 'archiver' && index === 0 && generation <= failpointStarts
          ? { ARCHIVER_FAILPOINT: 'after-history-write' }
          : {},
    });
    const w = await registerSpread(run, run.knob('tasks', 6000), run.knob('seconds', 60), {});
    let kills = 0;
    const maxKills = run.knob('kills', 5);
    while (kills < maxKills && Date.now() < w.end) {
      let caught = '';
      const inWindow = await pollUntil(
        async () => {
          const id = await run.view.oldestSucceeded();
          if (id && (await run.view.inHistory(id))) caught = id;
          return caught !== '';
        },
        { timeoutMs: Math.max(0, w.end - Date.now()), intervalMs: 10 },
      );
      if (!inWindow) break;
      kills++;
      run.mark(`kill -9 every archiver: job ${caught} written to history, not yet deleted`);
      await Promise.all(run.fleet.of('archiver').map((a) => run.fleet.kill(a)));
      await sleep(2000);
      await Promise.all(run.fleet.of('archiver').map((a) => run.fleet.restart(a)));
      await sleep(3000);
    }
    if (kills === 0) run.notes.push('the archiver was never caught between write and delete: no kill');
    const result = await finishWindow(run, w, lossHeadline);
    result.metrics.archiver_kills = kills;
    result.metrics.archiver_failpoint_exits = run.fleet.events.filter((e) =>
      /^archiver-0\.\d+ exited on its own/.test(e.what),
    ).length;
    result.checks.push({
      name: 'after the kills, each job once in history and gone from MySQL',
      ok: result.metrics.jobs_in_both_stores === 0,
      detail: `${result.metrics.jobs_in_both_stores} jobs in both stores at the end`,
    });
    return result;
  },
};
