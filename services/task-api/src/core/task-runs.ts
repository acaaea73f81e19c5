import {
  type BackfillRequest,
  fireTimesBetween,
  invalidArgument,
  MAX_BACKFILL_OCCURRENCES,
  notFound,
  type Tenant,
} from '@dsched/domain';
import type { TaskRuns } from '../ports.ts';

/** An Idempotency-Key short enough to live inside an occurrence key (and a superseded one). */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,40}$/;

/**
 * Runs the task now, as a job of its own through the same job path. With an Idempotency-Key,
 * asking again while that job is live answers the same job instead of making another.
 */
export async function triggerNow(
  runs: TaskRuns,
  tenant: Tenant,
  id: string,
  idempotencyKey: string | undefined,
): Promise<{ jobId: string }> {
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw invalidArgument('Idempotency-Key', 'at most 40 of A-Z a-z 0-9 . _ : -');
  }
  const result = await runs.trigger(tenant.id, id, idempotencyKey ?? null);
  if (!result) throw notFound('task');
  return { jobId: result.jobId };
}

/**
 * Runs the schedule's occurrences in [from, to) as backfill jobs, keyed by occurrence, so asking
 * twice runs each once. The range must be in the past and hold at most MAX_BACKFILL_OCCURRENCES.
 */
export async function backfill(
  runs: TaskRuns,
  tenant: Tenant,
  id: string,
  req: BackfillRequest,
): Promise<{ count: number; created: number }> {
  const from = new Date(req.from);
  const to = new Date(req.to);
  const result = await runs.backfill(tenant.id, id, (schedule, now) => {
    if (to.getTime() > now.getTime()) throw invalidArgument('to', 'must not be in the future');
    const { times, more } = fireTimesBetween(schedule, from, to, MAX_BACKFILL_OCCURRENCES);
    if (more) {
      throw invalidArgument('to', `the range holds more than ${MAX_BACKFILL_OCCURRENCES} occurrences`);
    }
    return times;
  });
  if (!result) throw notFound('task');
  return result;
}
