import {
  type CreateTaskRequest,
  checkTaskWorkflow,
  DschedError,
  newTask,
  type Task,
  type Tenant,
  toTaskSpec,
} from '@dsched/domain';
import type { DatabaseClock, TaskRepository } from '../ports.ts';

/**
 * Creates an active task whose first fire time is computed against the database clock, within
 * the tenant's maxTasks (counted atomically in MySQL, so it holds across API replicas).
 */
export async function createTask(
  deps: { tasks: TaskRepository; now: DatabaseClock },
  tenant: Tenant,
  req: CreateTaskRequest,
): Promise<Task> {
  // A scheduled workflow's graph is checked now, as a submission's is, so no occurrence meets a refused one.
  if (req.workflow) checkTaskWorkflow(req.workflow);
  const now = await deps.now();
  const task: Task = newTask(toTaskSpec(req, now), tenant.id, now);
  if (!(await deps.tasks.insert(task))) throw taskQuotaExceeded(tenant);
  return task;
}

/** The tenant's maxTasks is reached (a create, or an apply's creates). */
export function taskQuotaExceeded(tenant: Tenant): DschedError {
  // Retry-After is a polling hint here: the quota frees only when tasks are deleted.
  return new DschedError('resource_exhausted', `the tenant's quota of ${tenant.maxTasks} tasks is reached`, {
    details: [
      { field: 'maxTasks', issue: `at most ${tenant.maxTasks} tasks; delete one or raise the quota` },
    ],
    retryAfterS: 60,
  });
}
