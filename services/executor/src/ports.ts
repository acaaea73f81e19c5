import type { CallResult, Lane } from '@dsched/domain';
import type { ClaimedJob } from '@dsched/mysql/jobs/claims';
import type { AttemptRecord, JobTransition } from '@dsched/mysql/jobs/outcomes';

export type { AttemptRecord, ClaimedJob, JobTransition };

/** Claims up to `limit` due jobs of a lane for this process. */
export type JobClaimer = (lane: Lane, limit: number) => Promise<ClaimedJob[]>;

/** Applies one attempt's outcome, fenced by its attempt; throws ClaimLostError when stale. */
export type OutcomeRecorder = (
  job: { id: string; attempt: number },
  transition: JobTransition,
  attempt: AttemptRecord,
) => Promise<void>;

/** Makes the HTTP call of one claimed job. Never throws: failures are CallResults. */
export type TargetCaller = (job: ClaimedJob, signal: AbortSignal) => Promise<CallResult>;
