import type { Run } from '../harness/run.ts';
import { everyMinute, spread, type TaskPlan } from '../harness/workload.ts';
import { wholeSecondAfter } from './types.ts';

// The two shapes of load the fault scenarios run under: once tasks due evenly over a stretch of
// time (a steady stream a fault can land in the middle of), and cron tasks firing every minute.

export interface Window {
  /** t = 0: the first due time. */
  origin: number;
  /** The last due time that counts. */
  end: number;
}

type PlanOptions = { criticalShare?: number; profile?: string; retry?: TaskPlan['retry'] };

/**
 * A whole second far enough ahead that registering `tasks` more ends before it, judged from the
 * registration rate of a warm-up batch (with a 30% margin and 5 s more; `factor` in place of 1.3
 * where the rate is known to fall, as through vtgate on a busy machine).
 */
export async function dueAfterRegistering(run: Run, tasks: number, factor = 1.3): Promise<number> {
  const rate = await run.calibrate();
  return wholeSecondAfter(((tasks / rate) * factor + 5) * 1000);
}

/** `tasks` once tasks due evenly over `seconds`, starting once registration is done. */
export async function registerSpread(
  run: Run,
  tasks: number,
  seconds: number,
  o: PlanOptions = {},
): Promise<Window> {
  const origin = await dueAfterRegistering(run, tasks);
  const plans = spread(tasks, origin, seconds * 1000, { tenants: run.tenants.length, ...o });
  const reg = await run.register(plans);
  run.extraChecks.push({
    name: 'registration ended before the first due time',
    ok: reg.finishedAt < origin,
    detail: `${((origin - reg.finishedAt) / 1000).toFixed(1)} s to spare`,
  });
  return { origin, end: origin + seconds * 1000 };
}

/**
 * `tasks` cron tasks firing every minute (seconds spread over the minute) for `minutes` minutes
 * after registration. Tasks fire while the rest register; those occurrences count too.
 */
export async function registerCron(
  run: Run,
  tasks: number,
  minutes: number,
  o: PlanOptions = {},
): Promise<Window> {
  const reg = await run.register(everyMinute(tasks, { tenants: run.tenants.length, ...o }));
  let origin = Number.POSITIVE_INFINITY;
  for (const t of reg.tasks) origin = Math.min(origin, t.nextFireAt);
  return { origin, end: reg.finishedAt + minutes * 60_000 };
}

/** Waits for the window to drain and accounts for it. */
export async function finishWindow(
  run: Run,
  w: Window,
  headline: (m: Record<string, number>) => string,
  drainTimeoutMs = 300_000,
) {
  await run.drain(w.end, drainTimeoutMs);
  return run.finish(w.origin, w.end, headline);
}

export const lossHeadline = (m: Record<string, number>) =>
  `p99 lateness ${m.p99_ms} ms, ${m.redeliveries} redeliveries absorbed, ${m.restarts} restarts`;
