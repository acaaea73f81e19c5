import { pollUntil, sleep } from '../harness/wait.ts';
import { finishWindow, lossHeadline, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// The archiver killed between its two steps: it has written a job to Cassandra and not yet
// deleted it from MySQL. The harness watches for exactly that (the oldest succeeded job in MySQL
// already present in history) and kills every archiver -9 at that moment, several times. After
// restarts, every job must be in history once and gone from MySQL; none lost. A failpoint of the
// archiver's own (e.g. --env ARCHIVER_FAILPOINT=...) can be passed too.

export const archiverKill: Scenario = {
  name: 'archiver-kill',
  summary: 'archivers killed -9 between the Cassandra write and the MySQL delete, 5 times, then restarted',
  knobs: { tasks: 6000, seconds: 60, kills: 5 },
  async run(run) {
    await run.start({ tenants: 5, profiles: { fast: {} }, env: { ARCHIVER_BATCH_SIZE: '500' } });
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
    result.checks.push({
      name: 'after the kills, each job once in history and gone from MySQL',
      ok: result.metrics.jobs_in_both_stores === 0,
      detail: `${result.metrics.jobs_in_both_stores} jobs in both stores at the end`,
    });
    return result;
  },
};
