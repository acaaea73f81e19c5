import {
  type CreateTaskRequest,
  firstFireAt,
  newId,
  type Task,
  type Tenant,
  toTaskSpec,
} from '@dsched/domain';
import type { DatabaseClock, TaskRepository } from '../ports.ts';

/** Creates an active task whose first fire time is computed against the database clock. */
export async function createTask(
  deps: { tasks: TaskRepository; now: DatabaseClock },
  tenant: Tenant,
  req: CreateTaskRequest,
): Promise<Task> {
  const spec = toTaskSpec(req);
  const now = await deps.now();
  const task: Task = {
    ...spec,
    id: newId(now.getTime()),
    tenantId: tenant.id,
    state: 'active',
    nextFireAt: firstFireAt(spec.schedule, now),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await deps.tasks.insert(task);
  return task;
}
