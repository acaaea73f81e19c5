import { sleep } from '../harness/wait.ts';
import { finishWindow, lossHeadline, registerSpread } from './common.ts';
import type { Scenario } from './types.ts';

// MariaDB goes away for 30 s mid-run and comes back. This runs the harness's OWN mariadbd (own
// port, own data dir): the shared server on 3306 is never touched. Services that exit while it is
// down (a scheduler must, after a lease TTL without MySQL) are restarted as an orchestrator would.

export const mariadbRestart: Scenario = {
  name: 'mariadb-restart',
  summary: "MariaDB killed mid-run, down 30 s, restarted (the harness's own mariadbd, not the shared one)",
  knobs: { tasks: 6000, seconds: 90, down: 30 },
  async run(run) {
    const tasks = run.knob('tasks', 6000);
    await run.start({ tenants: 5, ownMariadb: true, profiles: { work: { delayMs: [20, 100] } } });
    const w = await registerSpread(run, tasks, run.knob('seconds', 90), {
      profile: 'work',
      criticalShare: 0.01,
    });
    const db = run.ownMariadb!;
    if (await run.waitEffects(Math.floor(tasks * 0.3), 240_000)) {
      run.mark('mariadb: kill -9 (down)');
      await db.down('kill');
      await sleep(run.knob('down', 30) * 1000);
      await db.up();
      run.mark('mariadb: started again');
    } else run.notes.push('30% was never delivered: MariaDB was not stopped');
    return finishWindow(run, w, lossHeadline, 420_000);
  },
};
