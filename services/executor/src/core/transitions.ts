import { type CallResult, decideOutcome } from '@dsched/domain';
import type { AttemptRecord, ClaimedJob, JobTransition } from '../ports.ts';

// What one finished call means for its job, as the transition and attempt row to write. Pure:
// the randomness of the backoff jitter and the time are parameters (docs/outcomes.md).

/** Why the executor aborted a call itself. */
export type AbortReason = 'shutdown' | 'cancel' | 'lost';

/** The outcome classes of dsched_job_outcomes_total. */
export type OutcomeClass = 'succeeded' | 'accepted' | 'retry' | 'dead' | 'cancelled' | 'given_back';

/** A parked (202) job's heartbeat timeout and completion deadline, in seconds from now. */
export interface ParkTimes {
  heartbeatSeconds: number;
  deadlineSeconds: number;
}

export interface Settlement {
  transition: JobTransition;
  attempt: AttemptRecord;
  outcome: OutcomeClass;
}

export function settle(
  job: ClaimedJob,
  result: CallResult,
  options: { durationMs: number; random: number; park: ParkTimes; abortedBy?: AbortReason | undefined },
): Settlement {
  const { durationMs } = options;
  // An abort decides only when it cut the call short; a response that came first stands.
  if (result.kind === 'error' && result.errorClass === 'aborted' && options.abortedBy) {
    switch (options.abortedBy) {
      case 'cancel':
        return {
          transition: { to: 'cancelled', lastStatus: null, lastError: 'cancelled' },
          attempt: {
            status: null,
            errorClass: 'cancelled',
            error: 'call aborted: job cancelled',
            durationMs,
          },
          outcome: 'cancelled',
        };
      case 'shutdown':
        return {
          transition: { to: 'give_back', lastError: 'given back at executor shutdown' },
          attempt: { status: null, errorClass: 'given_back', error: 'executor shutting down', durationMs },
          outcome: 'given_back',
        };
      case 'lost':
        // The claim is no longer ours; the fence will drop this write and count it stale.
        return {
          transition: { to: 'give_back', lastError: 'claim lost' },
          attempt: { status: null, errorClass: 'lease_lost', error: 'call aborted: claim lost', durationMs },
          outcome: 'given_back',
        };
    }
  }
  const decided = decideOutcome(result, job, options.random);
  const status = result.kind === 'response' ? result.status : null;
  const attempt: AttemptRecord = {
    status,
    errorClass:
      result.kind === 'error' ? result.errorClass : status !== null && status >= 300 ? 'http_status' : null,
    error:
      result.kind === 'error' ? result.message : status !== null && status >= 300 ? `HTTP ${status}` : null,
    durationMs,
  };
  switch (decided.type) {
    case 'succeeded':
      return {
        transition: { to: 'succeeded', lastStatus: status, lastError: null },
        attempt,
        outcome: 'succeeded',
      };
    case 'accepted':
      return {
        transition: { to: 'parked', lastStatus: status ?? 202, ...options.park },
        attempt,
        outcome: 'accepted',
      };
    case 'retry':
      return {
        transition: { to: 'retry', lastStatus: status, lastError: decided.reason, delayMs: decided.afterMs },
        attempt,
        outcome: 'retry',
      };
    case 'dead':
      return {
        transition: { to: 'dead', lastStatus: status, lastError: decided.reason },
        attempt,
        outcome: 'dead',
      };
  }
}
