import { claimJobs } from '@dsched/mysql/jobs/claims';
import { renewLeases } from '@dsched/mysql/jobs/leases';
import { recordOutcomes } from '@dsched/mysql/jobs/outcomes';
import type { Pool } from '@dsched/mysql/pool';
import type { JobClaimer, LeaseRenewer, OutcomeWriter } from '../ports.ts';

export function mysqlJobClaimer(
  pool: Pool,
  options: { owner: string; leaseSeconds: number; deferMs: number },
): JobClaimer {
  return (lane, limit) => claimJobs(pool, { lane, limit, ...options });
}

export function mysqlOutcomeWriter(pool: Pool): OutcomeWriter {
  return (writes) => recordOutcomes(pool, writes);
}

export function mysqlLeaseRenewer(
  pool: Pool,
  options: { owner: string; leaseSeconds: number },
): LeaseRenewer {
  return (held) => renewLeases(pool, { ...options, held });
}
