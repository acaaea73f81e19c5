import { type JobView, notFound } from '@dsched/domain';
import type { JobLookup } from '../ports.ts';

/**
 * MySQL first, history second: the archiver writes history before it deletes, so a job that
 * leaves MySQL between the two reads is already in history.
 */
export async function getJob(lookup: JobLookup, tenantId: string, id: string): Promise<JobView> {
  const job = (await lookup.live(tenantId, id)) ?? (await lookup.archived(tenantId, id));
  if (!job) throw notFound('job');
  return job;
}
