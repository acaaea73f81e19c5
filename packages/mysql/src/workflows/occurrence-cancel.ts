import type { CancelResult, JobsEnded } from '@dsched/domain';
import type { Pool } from 'mysql2/promise';
import { cancelJob } from '../jobs/control/index.ts';
import { cancelWorkflow } from './workflow-control.ts';

/**
 * job-api's cancel of a job. A scheduled workflow's occurrence whose run has started is cancelled by
 * cancelling its run (the run has the job's id), whose end finishes the job cancelled: the jobs
 * layer knows nothing of runs, so the two meet here, a layer above it. A run that ended between
 * the two transactions ended its job: asked again, the job says how.
 */
export async function cancelJobOrItsRun(
  pool: Pool,
  tenantId: string,
  id: string,
  onEnded?: JobsEnded,
): Promise<CancelResult> {
  const result = await cancelJob(pool, tenantId, id, onEnded);
  if (result !== 'starts_run') return result;
  const run = await cancelWorkflow(pool, tenantId, id, 'workflow occurrence cancelled');
  if (run === 'done') return 'cancelled';
  const again = await cancelJob(pool, tenantId, id, onEnded);
  return again === 'starts_run' ? 'finished' : again;
}
