import { type ApplyResult, applyTasksSchema, DschedError, planApply, type Tenant } from '@dsched/domain';
import { parseWith } from '@dsched/runtime';
import type { TaskRepository } from '../ports.ts';
import { taskQuotaExceeded } from './tasks.ts';

// POST /v1/tasks:apply (`dsched apply -f FILE`): a file of keyed tasks made true for the tenant in
// one transaction, or a 400 naming every bad entry and field and nothing changed.

/** The body, read strictly; a detail about an entry names its key too. */
function readRequest(body: unknown) {
  try {
    return parseWith(applyTasksSchema, body);
  } catch (err) {
    if (!(err instanceof DschedError)) throw err;
    const tasks = (body as { tasks?: unknown })?.tasks;
    const keyOf = (i: number) => {
      const key = Array.isArray(tasks) ? (tasks[i] as { key?: unknown } | undefined)?.key : undefined;
      return typeof key === 'string' ? ` (key "${key}")` : '';
    };
    const details = err.details.map((d) => {
      const m = /^tasks\.(\d+)\./.exec(d.field);
      return m ? { field: d.field, issue: `${d.issue}${keyOf(Number(m[1]))}` } : d;
    });
    throw new DschedError(err.code, details.map((d) => `${d.field}: ${d.issue}`).join('; '), { details });
  }
}

export async function applyTasks(
  deps: { tasks: TaskRepository },
  tenant: Tenant,
  body: unknown,
): Promise<ApplyResult> {
  const request = readRequest(body);
  const keys = request.prune ? null : request.tasks.flatMap((t) => (t.key ? [t.key] : []));
  const plan = await deps.tasks.apply(tenant.id, keys, {
    decide: (existing, now) => planApply({ tenantId: tenant.id, request, existing, now }),
    quotaExceeded: () => taskQuotaExceeded(tenant),
  });
  return plan.result;
}
