import { conflict, type JobView, MAX_BULK_REDRIVE, notFound } from '@dsched/domain';
import type { DeadLetterQueue, JobLookup } from '../ports.ts';

// Redrive from the DLQ: the dead job becomes pending again as a new attempt group, with the same
// id and so the same Idempotency-Key; its earlier attempts stay in its document.

export async function redriveOne(
  deps: { dlq: DeadLetterQueue; jobs: JobLookup },
  tenantId: string,
  id: string,
): Promise<JobView> {
  const [done] = await deps.dlq.redrive(tenantId, [id]);
  const job = await deps.jobs.live(tenantId, id);
  if (done && job) return job;
  // Not redriven: say why without revealing another tenant's job.
  if (job) throw conflict(`job is ${job.state}, not in the dead-letter queue`);
  if (await deps.jobs.archived(tenantId, id))
    throw conflict('job is archived: its dead-letter retention ran out, or it finished');
  throw notFound('job');
}

export async function redriveMany(
  deps: { dlq: DeadLetterQueue },
  tenantId: string,
  body: { jobIds?: string[] | undefined; taskId?: string | undefined },
): Promise<{ count: number; jobIds: string[] }> {
  const ids = body.jobIds
    ? await deps.dlq.redrive(tenantId, body.jobIds, body.taskId)
    : await deps.dlq.redriveTask(tenantId, body.taskId!, MAX_BULK_REDRIVE);
  return { count: ids.length, jobIds: ids };
}
