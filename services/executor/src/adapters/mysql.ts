import { claimDueJobs } from '@dsched/mysql/jobs/claims';
import { recordOutcome } from '@dsched/mysql/jobs/outcomes';
import type { Pool } from '@dsched/mysql/pool';
import type { JobClaimer, OutcomeRecorder } from '../ports.ts';

export function mysqlJobClaimer(pool: Pool, options: { owner: string; leaseSeconds: number }): JobClaimer {
  return (lane, limit) =>
    claimDueJobs(pool, { lane, limit, owner: options.owner, leaseSeconds: options.leaseSeconds });
}

export function mysqlOutcomeRecorder(pool: Pool): OutcomeRecorder {
  return (job, transition, attempt) => recordOutcome(pool, job, transition, attempt);
}
