import { nextFireAfter } from '../calendar/schedule.ts';
import type { JobState, Schedule } from '../model.ts';

// The audit of a task (GET /v1/tasks/{id}/audit): every occurrence its schedule implies in a
// range, and what became of it. Pure: the caller brings the jobs, the skip records and the time.

export const AUDIT_STATUSES = [
  'succeeded',
  'dead',
  'cancelled',
  'running',
  'pending',
  'skipped',
  'excluded',
  'missing',
] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** At most this many occurrences in one audit; a larger range is refused, naming `to`. */
export const MAX_AUDIT_OCCURRENCES = 10_000;

export interface AuditedJob {
  id: string;
  scheduledFor: Date;
  state: JobState;
  kind: string;
}

export interface SkipRecord {
  from: Date;
  to: Date;
  reason: string;
}

export interface AuditEntry {
  scheduledFor: string;
  status: AuditStatus;
  jobId?: string;
  reason?: string;
  /** An `excluded` occurrence that a calendar moved: the fire time it moved to. */
  movedTo?: string;
}

/**
 * The fire times of `schedule` in [from, to), oldest first, starting no earlier than the task
 * existed. Returns null when there are more than `cap`.
 */
export function impliedOccurrences(
  schedule: Schedule,
  range: { from: Date; to: Date },
  createdAt: Date,
  cap = MAX_AUDIT_OCCURRENCES,
): Date[] | null {
  const start = Math.max(range.from.getTime(), schedule.type === 'once' ? 0 : createdAt.getTime());
  const out: Date[] = [];
  let at = nextFireAfter(schedule, new Date(start - 1));
  while (at !== null && at.getTime() < range.to.getTime()) {
    if (out.length === cap) return null;
    out.push(at);
    at = nextFireAfter(schedule, at);
  }
  return out;
}

const STATUS_OF_STATE: Record<JobState, AuditStatus> = {
  pending: 'pending',
  running: 'running',
  succeeded: 'succeeded',
  dead: 'dead',
  cancelled: 'cancelled',
  failed: 'dead',
};

// A scheduled job speaks for its occurrence before a backfill of the same time does, and any job
// that was not cancelled before one that was: a task edit or pause cancels its unstarted jobs
// (moving them off their key, `superseded:...`), and the same instant may then run as a new job.
const KIND_RANK: Record<string, number> = { scheduled: 0, backfill: 1 };
const rankOf = (job: AuditedJob) => KIND_RANK[job.kind]! + (job.state === 'cancelled' ? 10 : 0);

/**
 * Classifies each occurrence. Without a job, an occurrence is `skipped` when a skip record covers
 * it, `pending` when the scheduler has not reached it yet (at or after the task's next fire time,
 * or in the future), and otherwise `missing`: the scheduler passed it and nothing ran.
 */
export function auditOccurrences(input: {
  occurrences: Date[];
  jobs: AuditedJob[];
  skips: SkipRecord[];
  nextFireAt: Date | null;
  now: Date;
}): AuditEntry[] {
  const byTime = new Map<number, AuditedJob>();
  for (const job of input.jobs) {
    const rank = KIND_RANK[job.kind];
    if (rank === undefined) continue;
    const t = job.scheduledFor.getTime();
    const seen = byTime.get(t);
    if (!seen || rankOf(job) < rankOf(seen)) byTime.set(t, job);
  }
  return input.occurrences.map((at) => {
    const t = at.getTime();
    const scheduledFor = at.toISOString();
    const job = byTime.get(t);
    if (job) return { scheduledFor, status: STATUS_OF_STATE[job.state], jobId: job.id };
    const skip = input.skips.find((s) => s.from.getTime() <= t && t <= s.to.getTime());
    if (skip) return { scheduledFor, status: 'skipped', reason: skip.reason };
    const notReached =
      (input.nextFireAt !== null && t >= input.nextFireAt.getTime()) || t > input.now.getTime();
    return { scheduledFor, status: notReached ? 'pending' : 'missing' };
  });
}
