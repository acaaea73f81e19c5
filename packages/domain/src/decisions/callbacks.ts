import type { RetryPolicy } from '../model.ts';

// Completion and failure callbacks (docs/callbacks.md). After a job's final outcome, a task with
// `callbacks.onSuccess` or `callbacks.onDead` gets a signed JSON event POSTed to that URL. The
// event is delivered by a callback job: a job row of the same task, made in the transaction that
// records the outcome (so it is never lost and never made twice: its occurrence key is the
// reported job and its attempt group), called by the executors like any job, with its own
// retries, its own Idempotency-Key and the SSRF guard, and never holding up the job it reports.

/** The events a callback job carries, by the outcome that made it. */
export const CALLBACK_EVENTS = { succeeded: 'job.succeeded', dead: 'job.dead' } as const;

/** Retries of a callback job: a few, backing off to a minute; then it is dead on its own. */
export const CALLBACK_RETRY: RetryPolicy = {
  maxAttempts: 5,
  initialBackoffMs: 1000,
  maxBackoffMs: 60_000,
  rules: [],
};

export const CALLBACK_TIMEOUT_MS = 10_000;

/** How much of the reported call's response body an event carries (bytes, UTF-8). */
export const CALLBACK_RESPONSE_BODY_BYTES = 4096;

/** The response body as an event carries it: at most CALLBACK_RESPONSE_BODY_BYTES of it. */
export function cappedResponseBody(body: Buffer): string {
  return body.subarray(0, CALLBACK_RESPONSE_BODY_BYTES).toString('utf8');
}

/**
 * What a job's final outcome sets off besides itself, read from the job row (copied from its task
 * when the job was made): a callback job to create, a failure count of its task to move.
 */
export interface FinishFollowUps {
  taskId: string;
  callbacks: boolean;
  countsFailures: boolean;
}

/** What the follow-ups of one batch of final outcomes made: callback jobs, and tasks paused. */
export interface FollowUpReport {
  callbackJobs: number;
  pausedTasks: number;
}
