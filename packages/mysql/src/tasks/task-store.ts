import type {
  FlowControl,
  Lane,
  MisfirePolicy,
  OverlapPolicy,
  RetryPolicy,
  Schedule,
  Tags,
  Target,
  Task,
  TaskCallbacks,
  TaskState,
  TaskWorkflow,
} from '@dsched/domain';
import { PRIORITY_RANK, priorityFromRank } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { readJson, writeJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { addTaskTags } from './task-tags.ts';

// Task rows. Every read is scoped by tenant: a task of another tenant is simply not found.

const INSERT_TASK = loadSql(import.meta.url, './insert-task.sql');
const SELECT_TASK = loadSql(import.meta.url, './select-task.sql');

/** A whole task row: select-task.sql, lock-task.sql, list-tasks.sql. */
export interface TaskRow extends RowDataPacket {
  id: Buffer;
  tenant_id: Buffer;
  name: string;
  /** JSON columns: a string or a parsed value, by driver and server (readJson takes both). */
  schedule: unknown;
  target: unknown;
  priority: number;
  lane: string;
  retry: unknown;
  misfire_policy: string;
  overlap_policy: string;
  metadata: unknown;
  state: string;
  next_fire_at: Date | null;
  partition: number;
  version: number;
  created_at: Date;
  updated_at: Date;
  jitter_s: number;
  pause_after_failures: number | null;
  callbacks: unknown;
  paused_reason: string | null;
  flow_control: unknown;
  workflow: unknown;
  task_key: string | null;
  tags: unknown;
}

type StoredSchedule =
  | (Omit<Extract<Schedule, { type: 'once' }>, 'at'> & { at: string })
  | Extract<Schedule, { type: 'cron' }>
  | (Omit<Extract<Schedule, { type: 'interval' }>, 'startAt'> & { startAt?: string });

export function scheduleToJson(s: Schedule): string {
  // A once schedule keeps its zone and words (schedule-text.ts) beside its instant.
  if (s.type === 'once') return writeJson({ ...s, at: s.at.toISOString() });
  if (s.type === 'interval' && s.startAt) return writeJson({ ...s, startAt: s.startAt.toISOString() });
  return writeJson(s);
}

/**
 * The schedule of a row read as JSON text, from a bounded memory of the texts read before: the
 * scheduler reads thousands of rows per tick, most of them sharing a few schedules, and a parsed
 * schedule (never changed once read) carries what it caches, its compiled calendar among them.
 * A driver that hands JSON over parsed (MySQL's) is read each time.
 */
export function scheduleFromRow(value: unknown): Schedule {
  if (typeof value !== 'string') return scheduleFromJson(value);
  let schedule = readSchedules.get(value);
  if (!schedule) {
    schedule = scheduleFromJson(value);
    if (readSchedules.size >= 10_000) readSchedules.clear();
    readSchedules.set(value, schedule);
  }
  return schedule;
}

const readSchedules = new Map<string, Schedule>();

export function scheduleFromJson(value: unknown): Schedule {
  const s = readJson<StoredSchedule>(value);
  if (s.type === 'once') return { ...s, at: new Date(s.at) };
  if (s.type === 'interval') {
    const { startAt, ...rest } = s;
    return startAt === undefined ? rest : { ...rest, startAt: new Date(startAt) };
  }
  return s;
}

export function rowToTask(r: TaskRow): Task {
  return {
    id: binToId(r.id),
    tenantId: binToId(r.tenant_id),
    name: r.name,
    schedule: scheduleFromJson(r.schedule),
    target: readJson<Target>(r.target),
    priority: priorityFromRank(Number(r.priority)),
    lane: r.lane as Lane,
    retry: readJson<RetryPolicy>(r.retry),
    misfirePolicy: r.misfire_policy as MisfirePolicy,
    overlapPolicy: r.overlap_policy as OverlapPolicy,
    metadata: readJson<Record<string, unknown> | null>(r.metadata),
    state: r.state as TaskState,
    nextFireAt: r.next_fire_at,
    version: Number(r.version),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    jitterS: Number(r.jitter_s),
    pauseAfterFailures: r.pause_after_failures === null ? null : Number(r.pause_after_failures),
    callbacks: readJson<TaskCallbacks | null>(r.callbacks),
    pausedReason: r.paused_reason ?? null,
    flowControl: readJson<FlowControl | null>(r.flow_control),
    workflow: readJson<TaskWorkflow | null>(r.workflow ?? null),
    key: r.task_key ?? null,
    tags: readJson<Tags | null>(r.tags ?? null),
  };
}

/** The columns after updated_at in insert-task.sql (jitter_s through task_key, tags), in that order. */
export function trailingTaskValues(t: Task): unknown[] {
  return [
    t.jitterS,
    t.pauseAfterFailures,
    t.callbacks === null ? null : writeJson(t.callbacks),
    t.pausedReason,
    t.flowControl ? writeJson(t.flowControl) : null,
    t.workflow === null ? null : writeJson(t.workflow),
    t.key ?? null,
    t.tags === null ? null : writeJson(t.tags),
  ];
}

/** The columns a task change may write, name through next_fire_at, in insert-task.sql's order. */
export function changeableTaskValues(t: Task): unknown[] {
  return [
    t.name,
    scheduleToJson(t.schedule),
    writeJson(t.target),
    PRIORITY_RANK[t.priority],
    t.lane,
    writeJson(t.retry),
    t.misfirePolicy,
    t.overlapPolicy,
    t.metadata === null ? null : writeJson(t.metadata),
    t.state,
    t.nextFireAt,
  ];
}

export function taskToRow(t: Task, partition: number): unknown[] {
  return [
    idToBin(t.id),
    idToBin(t.tenantId),
    ...changeableTaskValues(t),
    partition,
    t.version,
    t.createdAt,
    t.updatedAt,
    ...trailingTaskValues(t),
  ];
}

export async function insertTask(pool: Pool, task: Task, partition: number): Promise<void> {
  await addTaskTags(pool, task);
  await pool.query(INSERT_TASK, [taskToRow(task, partition)]);
}

export async function getTask(pool: Pool, tenantId: string, id: string): Promise<Task | null> {
  const [rows] = await pool.query<TaskRow[]>(SELECT_TASK, [idToBin(id), idToBin(tenantId)]);
  return rows[0] ? rowToTask(rows[0]) : null;
}
