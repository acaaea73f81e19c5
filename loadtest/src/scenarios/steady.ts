import { finishWindow, registerCron } from './common.ts';
import type { Scenario } from './types.ts';

export const steady: Scenario = {
  name: 'steady',
  summary: 'a compressed cron load: 30,000 schedules firing every minute (500/s) for several minutes',
  knobs: { tasks: 30_000, minutes: 3 },
  async run(run) {
    await run.start({ tenants: 10, profiles: { fast: {} } });
    const w = await registerCron(run, run.knob('tasks', 30_000), run.knob('minutes', 3), {
      criticalShare: 0.01,
    });
    return finishWindow(run, w, (m) => {
      m.rate_per_s = Number(((m.expected ?? 0) / ((w.end - w.origin) / 1000)).toFixed(0));
      return `${m.rate_per_s}/s for ${((w.end - w.origin) / 60_000).toFixed(1)} min, p99 lateness ${m.p99_ms} ms (critical ${m.critical_p99_ms} ms)`;
    });
  },
};
