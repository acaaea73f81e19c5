import { canonicalJson } from '../json.ts';
import type { FlowControl, JobState, Priority, Schedule, Tags, Task } from '../model.ts';
import { describeSchedule } from '../words/schedule-description.ts';

// The documents the APIs return. A job's view is built the same way from a live MySQL row and
// from its archived copy, so a caller cannot tell where it came from.

export interface AttemptView {
  attempt: number;
  startedAt: string;
  finishedAt?: string;
  status?: number;
  error?: string;
  errorClass?: string;
  durationMs?: number;
  executor: string;
  /** The occurrence's trace (32 hex), the same for each of its attempts (docs/tracing.md). */
  traceId?: string;
}

export interface JobView {
  id: string;
  taskId: string | null;
  workflowId?: string;
  nodeId?: string;
  kind: string;
  state: JobState;
  attempt: number;
  maxAttempts: number;
  /** 1, plus one per redrive from the DLQ: a redrive starts a new group of attempts. */
  attemptGroup?: number;
  priority: Priority;
  scheduledFor: string;
  startedAt?: string;
  finishedAt?: string;
  lastStatus?: number;
  lastError?: string;
  /** A cancel was requested while an executor was calling it; the call is being aborted. */
  cancelRequested?: boolean;
  /** A parked (202) job: it must complete by `deadlineAt` and heartbeat by `heartbeatBy`. */
  deadlineAt?: string;
  heartbeatBy?: string;
  /** What an asynchronous target reported: heartbeat progress, and the output of complete. */
  progress?: unknown;
  output?: unknown;
  /** Its task's or workflow's tags when it was made (docs/tags.md). */
  tags?: Tags;
  attempts: AttemptView[];
}

export function iso(d: Date): string {
  return d.toISOString();
}

/** A schedule as responses show it, with its sentence (`description`) and its words, if any. */
export function scheduleView(s: Schedule, options: { jitterS?: number } = {}): Record<string, unknown> {
  const description = describeSchedule(s, options);
  if (s.type === 'once') return { ...s, at: iso(s.at), description };
  if (s.type === 'interval') return { ...s, ...(s.startAt ? { startAt: iso(s.startAt) } : {}), description };
  return { ...s, description };
}

function flowControlView(f: FlowControl): Record<string, unknown> {
  return {
    key: f.key,
    ...(f.parallelism !== null ? { parallelism: f.parallelism } : {}),
    ...(f.ratePerSecond !== null ? { ratePerSecond: f.ratePerSecond } : {}),
  };
}

// The task's documents (schedule, target or workflow, retry, metadata, callbacks) in canonical
// key order, whether the task was just built from a request or read back from either engine:
// create, get and list answer the same bytes.
export function taskView(t: Task): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    ...(t.key ? { key: t.key } : {}),
    schedule: canonicalJson(scheduleView(t.schedule, { jitterS: t.jitterS })),
    ...(t.workflow ? { workflow: canonicalJson(t.workflow) } : { target: canonicalJson(t.target) }),
    priority: t.priority,
    lane: t.lane,
    retry: canonicalJson(t.retry),
    misfirePolicy: t.misfirePolicy,
    overlapPolicy: t.overlapPolicy,
    ...(t.metadata ? { metadata: canonicalJson(t.metadata) } : {}),
    ...(t.tags ? { tags: canonicalJson(t.tags) } : {}),
    ...(t.jitterS > 0 ? { jitterS: t.jitterS } : {}),
    ...(t.pauseAfterFailures !== null ? { pauseAfterFailures: t.pauseAfterFailures } : {}),
    ...(t.callbacks ? { callbacks: canonicalJson(t.callbacks) } : {}),
    ...(t.flowControl ? { flowControl: flowControlView(t.flowControl) } : {}),
    state: t.state,
    ...(t.state === 'paused' && t.pausedReason ? { pausedReason: t.pausedReason } : {}),
    // A paused task fires nothing until resumed, whatever its stored next fire time.
    nextFireAt: t.nextFireAt && t.state === 'active' ? iso(t.nextFireAt) : null,
    version: t.version,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}
