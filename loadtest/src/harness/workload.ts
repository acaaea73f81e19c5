import type { ApiClient, Tenant } from './api.ts';
import { mapConcurrent } from './wait.ts';

// What a scenario registers, and what that implies: the occurrences that must each be delivered.
// Cron workloads use only "every minute at second S" in UTC, so the harness computes their
// occurrences with plain arithmetic, independently of the cron code it is testing.

export type Priority = 'critical' | 'high' | 'normal' | 'low';

export type PlannedSchedule = { type: 'once'; at: number } | { type: 'cron'; second: number };

export interface TaskPlan {
  tenant: number;
  priority: Priority;
  /** The sink profile answering this task's calls. */
  profile: string;
  schedule: PlannedSchedule;
  timeoutMs?: number;
  retry?: { maxAttempts: number; initialBackoffMs: number; maxBackoffMs: number };
  /** A flexible window: the task's calls may come up to this many seconds after their time. */
  jitterS?: number;
}

export interface RegisteredTask {
  plan: TaskPlan;
  id: string;
  /** The first fire time the API answered, ms. */
  nextFireAt: number;
}

export interface Occurrence {
  task: RegisteredTask;
  scheduledMs: number;
}

export const occurrenceKey = (taskId: string, scheduledMs: number) => `${taskId}|${scheduledMs}`;

/** Every occurrence the registered tasks imply up to `windowEndMs` (inclusive). */
export function expectedOccurrences(tasks: RegisteredTask[], windowEndMs: number): Map<string, Occurrence> {
  const out = new Map<string, Occurrence>();
  for (const task of tasks) {
    if (task.plan.schedule.type === 'once') {
      if (task.plan.schedule.at <= windowEndMs)
        out.set(occurrenceKey(task.id, task.plan.schedule.at), { task, scheduledMs: task.plan.schedule.at });
      continue;
    }
    for (let t = task.nextFireAt; t <= windowEndMs; t += 60_000)
      out.set(occurrenceKey(task.id, t), { task, scheduledMs: t });
  }
  return out;
}

export function taskBody(plan: TaskPlan, sinkBase: string, name: string): Record<string, unknown> {
  const schedule =
    plan.schedule.type === 'once'
      ? { type: 'once', at: new Date(plan.schedule.at).toISOString() }
      : { type: 'cron', expression: `${plan.schedule.second} * * * * *`, timezone: 'UTC' };
  return {
    name,
    schedule,
    target: {
      url: `${sinkBase}/s/${plan.tenant}/${plan.profile}`,
      body: { lt: 1 },
      ...(plan.timeoutMs ? { timeoutMs: plan.timeoutMs } : {}),
    },
    priority: plan.priority,
    ...(plan.retry ? { retry: plan.retry } : {}),
    ...(plan.jitterS ? { jitterS: plan.jitterS } : {}),
  };
}

export interface Registration {
  tasks: RegisteredTask[];
  startedAt: number;
  finishedAt: number;
  perSecond: number;
}

/** Registers every plan through task-api, `concurrency` requests in flight across the replicas. */
export async function registerTasks(
  api: ApiClient,
  tenants: Tenant[],
  plans: TaskPlan[],
  options: { sinkBase: string; concurrency: number; namePrefix?: string },
): Promise<Registration> {
  const startedAt = Date.now();
  const tasks = await mapConcurrent(plans, options.concurrency, async (plan, i) => {
    const tenant = tenants[plan.tenant];
    if (!tenant) throw new Error(`plan ${i}: no tenant ${plan.tenant}`);
    const res = await api.call<{ id: string; nextFireAt: string | null; error?: unknown }>(
      'POST',
      '/v1/tasks',
      {
        token: tenant.apiKey,
        body: taskBody(plan, options.sinkBase, `${options.namePrefix ?? 'lt'}-${i}`),
      },
    );
    if (res.status !== 201) throw new Error(`register task ${i}: ${res.status} ${JSON.stringify(res.body)}`);
    const nextFireAt = res.body.nextFireAt ? Date.parse(res.body.nextFireAt) : Number.NaN;
    return { plan, id: res.body.id, nextFireAt };
  });
  const finishedAt = Date.now();
  return {
    tasks,
    startedAt,
    finishedAt,
    perSecond: (plans.length * 1000) / Math.max(1, finishedAt - startedAt),
  };
}

/** `n` once tasks due at `at`, `criticalShare` of them critical, spread over the tenants. */
export function burst(
  n: number,
  at: number,
  o: {
    tenants: number;
    criticalShare?: number;
    profile?: string;
    retry?: TaskPlan['retry'];
    /** A flexible window for the non-critical tasks (critical ones keep their instant). */
    jitterS?: number;
  },
): TaskPlan[] {
  const criticalEvery = o.criticalShare ? Math.round(1 / o.criticalShare) : 0;
  return Array.from({ length: n }, (_, i) => {
    const critical = criticalEvery > 0 && i % criticalEvery === 0;
    return {
      tenant: i % o.tenants,
      priority: critical ? 'critical' : 'normal',
      profile: o.profile ?? 'fast',
      schedule: { type: 'once', at },
      ...(o.retry ? { retry: o.retry } : {}),
      ...(o.jitterS && !critical ? { jitterS: o.jitterS } : {}),
    };
  });
}

/** `n` once tasks due evenly over `durationMs` from `from` (whole milliseconds). */
export function spread(
  n: number,
  from: number,
  durationMs: number,
  o: { tenants: number; criticalShare?: number; profile?: string; retry?: TaskPlan['retry'] },
): TaskPlan[] {
  const plans = burst(n, from, o);
  return plans.map((p, i) => ({
    ...p,
    schedule: { type: 'once', at: from + Math.floor((i * durationMs) / n) },
  }));
}

/** `n` cron tasks each firing every minute, at seconds spread evenly over the minute. */
export function everyMinute(
  n: number,
  o: { tenants: number; criticalShare?: number; profile?: string; retry?: TaskPlan['retry'] },
): TaskPlan[] {
  return burst(n, 0, o).map((p, i) => ({ ...p, schedule: { type: 'cron', second: i % 60 } }));
}
