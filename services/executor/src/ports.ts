import type {
  AttemptRecord,
  CallResult,
  ClaimedJob,
  ClaimRef,
  ClaimResult,
  JobTransition,
  Lane,
  LeaseReport,
  OutcomeWrite,
} from '@dsched/domain';

export type { AttemptRecord, ClaimedJob, ClaimRef, ClaimResult, JobTransition, LeaseReport, OutcomeWrite };

/** Claims up to `limit` due jobs of a lane for this process. */
export type JobClaimer = (lane: Lane, limit: number) => Promise<ClaimResult>;

/** Applies a batch of outcomes, each fenced by its attempt; returns the writes whose claim was lost. */
export type OutcomeWriter = (writes: OutcomeWrite[]) => Promise<OutcomeWrite[]>;

/** Renews the leases of the claims this process holds; reports the lost and the cancelled. */
export type LeaseRenewer = (held: ClaimRef[]) => Promise<LeaseReport>;

/** Of the claims this process holds, those whose cancel was requested (asked about every second or so). */
export type CancelWatcher = (held: ClaimRef[]) => Promise<ClaimRef[]>;

/** Makes the HTTP call of one claimed job. Never throws: failures are CallResults. */
export type TargetCaller = (job: ClaimedJob, signal: AbortSignal) => Promise<CallResult>;
