import {
  AUDIT_STATUSES,
  type AuditEntry,
  type AuditedJob,
  type AuditStatus,
  auditOccurrences,
  excludedOccurrences,
  impliedOccurrences,
  invalidArgument,
  MAX_AUDIT_OCCURRENCES,
  notFound,
  type SkipRecord,
  type Task,
} from '@dsched/domain';

// GET /v1/tasks/{id}/audit: every occurrence the schedule implies in a range and what became of
// it, from the live jobs (MySQL), the archived ones (history) and the skip records.

/** What the audit reads, owned here. */
export interface AuditSources {
  task(tenantId: string, id: string): Promise<Task | null>;
  liveJobs(taskId: string, range: { from: Date; to: Date }): Promise<AuditedJob[]>;
  archivedJobs(tenantId: string, taskId: string, range: { from: Date; to: Date }): Promise<AuditedJob[]>;
  skips(taskId: string, range: { from: Date; to: Date }): Promise<SkipRecord[]>;
  now(): Promise<Date>;
  /** Days history keeps a job: older occurrences could not be told apart from missing ones. */
  historyRetentionDays: number;
  /** Counts occurrences found missing (dsched_audit_missing_total). */
  onMissing(n: number): void;
}

export interface AuditResult {
  taskId: string;
  from: string;
  to: string;
  occurrences: AuditEntry[];
  counts: Record<AuditStatus, number>;
}

export async function auditTask(
  deps: AuditSources,
  tenantId: string,
  taskId: string,
  q: { from: string; to: string },
): Promise<AuditResult> {
  const task = await deps.task(tenantId, taskId);
  if (!task) throw notFound('task');
  const range = { from: new Date(q.from), to: new Date(q.to) };
  const now = await deps.now();
  if (range.from.getTime() < now.getTime() - deps.historyRetentionDays * 86_400_000) {
    throw invalidArgument('from', `before the history retention of ${deps.historyRetentionDays} days`);
  }
  const occurrences = impliedOccurrences(task.schedule, range, task.createdAt);
  if (occurrences === null) {
    throw invalidArgument('to', `the range holds more than ${MAX_AUDIT_OCCURRENCES} occurrences: narrow it`);
  }
  // Read MySQL before history: a job the archiver moves in between is then seen in history
  // (it writes there before it deletes), never in neither.
  const live = await deps.liveJobs(taskId, range);
  const [archived, skips] = await Promise.all([
    deps.archivedJobs(tenantId, taskId, range),
    deps.skips(taskId, range),
  ]);
  const liveIds = new Set(live.map((j) => j.id));
  const jobs = [...live, ...archived.filter((j) => !liveIds.has(j.id))];
  // A calendar's excluded occurrences were never due: `excluded`, beside the ones that ran.
  const entries = [
    ...auditOccurrences({ occurrences, jobs, skips, nextFireAt: task.nextFireAt, now }),
    ...excludedOccurrences(task.schedule, range, task.createdAt),
  ].sort((a, b) => Date.parse(a.scheduledFor) - Date.parse(b.scheduledFor));
  const counts = Object.fromEntries(AUDIT_STATUSES.map((s) => [s, 0])) as Record<AuditStatus, number>;
  for (const e of entries) counts[e.status] += 1;
  if (counts.missing > 0) deps.onMissing(counts.missing);
  return { taskId, from: range.from.toISOString(), to: range.to.toISOString(), occurrences: entries, counts };
}
