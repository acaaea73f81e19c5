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

/**
 * Ends up to `limit` due sleep and wait (timed out) node jobs without a call, through the finish
 * path, and takes a few steps of due map nodes (a slice of items made, or the node ended); reports
 * how many of each kind ended, and whether there may be more to do at once.
 */
export type NodeWaker = (
  limit: number,
) => Promise<{ woken: { sleep: number; wait: number; map: number }; full: boolean }>;

/** Renews the leases of the claims this process holds; reports the lost and the cancelled. */
export type LeaseRenewer = (held: ClaimRef[]) => Promise<LeaseReport>;

/** Of the claims this process holds, those whose cancel was requested (asked about every second or so). */
export type CancelWatcher = (held: ClaimRef[]) => Promise<ClaimRef[]>;

/**
 * Tells one call to stop (a cancel, a lost claim, shutdown). One per call: the caller sets its
 * single listener for the call's duration and clears it (undefined) when the call ends.
 */
export interface CallAbort {
  /** Set once the call must stop. */
  readonly reason: Error | undefined;
  /** Runs `listener` when the call must stop (at once when it already must); undefined clears it. */
  onAbort(listener: ((reason: Error) => void) | undefined): void;
}

/**
 * Makes the HTTP call of one claimed job. Never throws: failures are CallResults. `traceparent`
 * (W3C) goes with the call so the target continues the occurrence's trace.
 */
export type TargetCaller = (job: ClaimedJob, abort: CallAbort, traceparent?: string) => Promise<CallResult>;
