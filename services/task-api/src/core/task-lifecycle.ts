import {
  DschedError,
  decodePageToken,
  deleteTask,
  encodePageToken,
  isId,
  type ListTasksQuery,
  notFound,
  type PageQuery,
  type PatchTaskRequest,
  parseTagFilter,
  patchTask,
  pauseTask,
  resumeTask,
  type Task,
  type TaskChange,
  type Tenant,
  tagFilterKey,
} from '@dsched/domain';
import type { TaskRepository } from '../ports.ts';

// The task lifecycle of docs/api.md: list, edit, pause, resume, delete. Each change runs under the
// task's row lock with the database clock (TaskRepository.change); the decisions are the domain's.

type Decide = (task: Task, now: Date) => TaskChange | null;

/** Honours an If-Match version: the change applies only to the version the client saw. */
function atVersion(expected: number | undefined, decide: Decide): Decide {
  return (task, now) => {
    if (expected !== undefined && task.version !== expected) {
      throw new DschedError('failed_precondition', `task is at version ${task.version}, not ${expected}`);
    }
    return decide(task, now);
  };
}

async function change(tasks: TaskRepository, tenant: Tenant, id: string, decide: Decide): Promise<Task> {
  const result = await tasks.change(tenant.id, id, decide);
  if (!result) throw notFound('task');
  return result.task;
}

export function editTask(
  tasks: TaskRepository,
  tenant: Tenant,
  id: string,
  req: PatchTaskRequest,
  expectedVersion?: number,
): Promise<Task> {
  return change(
    tasks,
    tenant,
    id,
    atVersion(expectedVersion, (t, now) => patchTask(t, req, now)),
  );
}

export function pause(tasks: TaskRepository, tenant: Tenant, id: string): Promise<Task> {
  return change(tasks, tenant, id, pauseTask);
}

export function resume(tasks: TaskRepository, tenant: Tenant, id: string): Promise<Task> {
  return change(tasks, tenant, id, resumeTask);
}

export async function remove(tasks: TaskRepository, tenant: Tenant, id: string, expectedVersion?: number) {
  await change(
    tasks,
    tenant,
    id,
    atVersion(expectedVersion, (t, now) => deleteTask(t, now)),
  );
}

/** The task list a token is bound to: the tenant's, with its state filter. */
const taskListQuery = (tenant: Tenant, state: string | undefined, tags: string | undefined): PageQuery => ({
  list: 'GET /v1/tasks',
  filters: { tenant: tenant.id, state, tags },
});

/** A task list's key: the last task's id (ids are UUIDv7, so id order is creation order). */
const readTaskKey = ([id, ...rest]: unknown[]): string | undefined =>
  rest.length === 0 && typeof id === 'string' && isId(id) ? id : undefined;

/** A page of the tenant's tasks, oldest first, and the token of the next page when more remain. */
export async function listTaskPage(
  tasks: TaskRepository,
  tenant: Tenant,
  query: ListTasksQuery,
): Promise<{ tasks: Task[]; nextPageToken?: string }> {
  const tags = parseTagFilter(query.tag);
  const pageQuery = taskListQuery(tenant, query.state, tagFilterKey(tags));
  const afterId = query.pageToken ? decodePageToken(query.pageToken, pageQuery, readTaskKey) : undefined;
  const rows = await tasks.list(tenant.id, {
    limit: query.limit + 1,
    ...(afterId ? { afterId } : {}),
    ...(query.state ? { state: query.state } : {}),
    ...(query.key ? { key: query.key } : {}),
    ...(tags ? { tags } : {}),
  });
  const page = rows.slice(0, query.limit);
  return rows.length > query.limit
    ? { tasks: page, nextPageToken: encodePageToken(pageQuery, [page.at(-1)!.id]) }
    : { tasks: page };
}
