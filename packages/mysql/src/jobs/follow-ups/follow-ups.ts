import type { FinishFollowUps } from '@dsched/domain';
import { binToId } from '../../ids.ts';

// What a job's final outcome sets off besides itself, known from its row (docs/callbacks.md,
// docs/scheduling.md#pause-on-failure): its callback job (callbacks.ts) and its task's failure
// streak with the pause it may reach (failure-streaks.ts). Each is a follow-up of the finish path
// (../finish/finish-jobs.ts): run in
// the transaction that ended the job, after its fenced update, so each happens exactly once per end
// whatever crashes around it.

/**
 * The columns every ending path reads with a job to know its follow-ups (claim-read.sql,
 * control-lock.sql, the reconciler's selects).
 */
export interface FollowUpColumns {
  task_id: Buffer | null;
  /** callbacks IS NOT NULL */
  has_callbacks: number;
  counts_failures: number;
}

/** A job row's follow-ups; null when it has none. */
export function followUpsOfRow(r: FollowUpColumns): FinishFollowUps | null {
  const callbacks = Number(r.has_callbacks) === 1;
  const countsFailures = Number(r.counts_failures) === 1;
  if ((!callbacks && !countsFailures) || r.task_id === null) return null;
  return { taskId: binToId(r.task_id), callbacks, countsFailures };
}
