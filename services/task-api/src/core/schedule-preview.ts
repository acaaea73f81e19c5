import {
  describeSchedule,
  notFound,
  type occurrencesQuerySchema,
  previewOccurrences,
  type Schedule,
  type schedulePreviewSchema,
  type Tenant,
  toSchedule,
} from '@dsched/domain';
import type { z } from 'zod';
import type { DatabaseClock, TaskRepository } from '../ports.ts';

// The fire-time preview, for a saved task and for a schedule not yet saved: the domain's planner
// with the schedule's DST policy, from the database clock unless the caller names `from`.

export interface OccurrencePreview {
  timezone: string;
  description: string;
  from: string;
  occurrences: ReturnType<typeof previewOccurrences>;
}

function preview(schedule: Schedule, from: Date, count: number, jitterS = 0): OccurrencePreview {
  return {
    timezone: schedule.type === 'cron' ? schedule.timezone : 'UTC',
    description: describeSchedule(schedule, { jitterS }),
    from: from.toISOString(),
    occurrences: previewOccurrences(schedule, from, count),
  };
}

export async function taskOccurrences(
  deps: { tasks: TaskRepository; now: DatabaseClock },
  tenant: Tenant,
  id: string,
  query: z.infer<typeof occurrencesQuerySchema>,
): Promise<OccurrencePreview> {
  const task = await deps.tasks.get(tenant.id, id);
  if (!task) throw notFound('task');
  const from = query.from !== undefined ? new Date(query.from) : await deps.now();
  return preview(task.schedule, from, query.count, task.jitterS);
}

export async function schedulePreview(
  deps: { now: DatabaseClock },
  body: z.infer<typeof schedulePreviewSchema>,
): Promise<OccurrencePreview> {
  const now = await deps.now();
  const from = body.from !== undefined ? new Date(body.from) : now;
  return preview(toSchedule(body.schedule, now), from, body.count);
}
