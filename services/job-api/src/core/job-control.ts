import {
  type CompleteRequest,
  conflict,
  decideAsyncFailure,
  type HeartbeatRequest,
  notFound,
} from '@dsched/domain';
import type { JobApiMetrics } from '../metrics.ts';
import type { CallbackResult, CompletionDecision, JobControl, LockedJob } from '../ports.ts';

// Cancel, and the two callbacks of an asynchronous (202) job: the decisions on top of the
// conditional writes. A callback whose attempt is not the job's current running attempt is
// stale: 409, and counted like any result the fence dropped.

export interface ControlDeps {
  control: JobControl;
  metrics: JobApiMetrics;
  /** Uniform in [0, 1), for the backoff jitter of a reported failure. */
  random: () => number;
  heartbeatExtendSeconds: number;
}

function staleOr404<T>(deps: ControlDeps, result: CallbackResult<T>, attempt: number): T {
  if (result.kind === 'ok') return result.value;
  if (result.kind === 'not_found') throw notFound('job');
  deps.metrics.staleResults.inc();
  const { job } = result;
  throw conflict(
    job.state === 'running'
      ? `attempt ${attempt} is stale: the job is at attempt ${job.attempt}`
      : `attempt ${attempt} is stale: the job is ${job.state}`,
  );
}

/** Cancels a job; returns nothing, the route answers with the job as it now is. */
export async function cancelJob(deps: ControlDeps, tenantId: string, id: string): Promise<void> {
  const result = await deps.control.cancel(tenantId, id);
  if (result === 'not_found') throw notFound('job');
  if (result === 'finished') throw conflict('the job has already finished');
}

export async function heartbeat(deps: ControlDeps, tenantId: string, id: string, req: HeartbeatRequest) {
  const result = await deps.control.heartbeat({
    tenantId,
    id,
    attempt: req.attempt,
    extendSeconds: deps.heartbeatExtendSeconds,
    ...(req.progress !== undefined ? { progress: req.progress } : {}),
  });
  const value = staleOr404(deps, result, req.attempt);
  return {
    id,
    attempt: req.attempt,
    state: 'running' as const,
    heartbeatBy: value.heartbeatBy.toISOString(),
    ...(value.deadlineAt ? { deadlineAt: value.deadlineAt.toISOString() } : {}),
    cancelRequested: value.cancelRequested,
  };
}

/** What a target's report makes of the job: done, or a failure that retries while attempts remain. */
export function completionFor(req: CompleteRequest, job: LockedJob, random: number): CompletionDecision {
  if (req.outcome === 'succeeded') return { to: 'succeeded', output: req.output, error: null };
  const reason = `failed: ${req.error ?? 'the target reported a failure'}`;
  const decided = decideAsyncFailure(job, random, reason);
  return decided.type === 'retry'
    ? { to: 'retry', output: req.output, error: reason, delayMs: decided.afterMs }
    : { to: 'dead', output: req.output, error: decided.type === 'dead' ? decided.reason : reason };
}

export async function complete(
  deps: ControlDeps,
  tenantId: string,
  id: string,
  req: CompleteRequest,
): Promise<void> {
  const random = deps.random();
  const result = await deps.control.complete(
    { tenantId, id, attempt: req.attempt, errorClass: req.outcome === 'failed' ? 'async_failed' : null },
    (job) => completionFor(req, job, random),
  );
  const decision = staleOr404(deps, result, req.attempt);
  if (decision.to === 'dead') deps.metrics.dlqAdditions.inc();
}
