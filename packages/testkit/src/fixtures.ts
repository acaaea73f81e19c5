import {
  type NewTenant,
  newApiKey,
  newId,
  newSigningSecret,
  normaliseTags,
  type SecretsKeyring,
  type Tags,
  type Task,
  tagStrings,
} from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { Pool } from '@dsched/mysql/pool';
import { insertTask } from '@dsched/mysql/tasks';
import { insertTenant } from '@dsched/mysql/tenants';

// The one fixtures module for tests and benchmarks: tenants (with an API key), tasks (values and
// rows), and jobs in a given state written straight into MySQL in multi-row statements (bounded
// chunks), as the executor would have left them. Bulk loaders for many rows are tasks.ts
// (thousands of cron tasks) and queue.ts (due pending jobs on the database clock).

const CHUNK = 1000;

/** A tenant with an API key (no limits unless `overrides` sets them). */
export async function createTenantWithKey(
  pool: Pool,
  name = 'acme',
  overrides: Partial<Omit<NewTenant, 'name'>> = {},
  /** With a keyring the signing secret is stored sealed, as task-api stores it; else in plaintext. */
  options: { keyring?: SecretsKeyring } = {},
): Promise<NewTenant & { apiKey: string }> {
  const key = newApiKey();
  const tenant: NewTenant = {
    id: newId(),
    name,
    signingSecret: newSigningSecret(),
    maxTasks: null,
    maxConcurrency: null,
    rateLimitPerSecond: null,
    weight: 1,
    createdAt: new Date(),
    ...overrides,
  };
  await insertTenant(pool, tenant, { hash: key.hash, prefix: key.prefix }, options);
  return { ...tenant, apiKey: key.key };
}

export function cronTask(tenantId: string, overrides: Partial<Task> = {}): Task {
  const now = new Date();
  return {
    id: newId(),
    tenantId,
    name: 'every-minute',
    schedule: {
      type: 'cron',
      expression: '* * * * *',
      timezone: 'UTC',
      dst: { repeated: 'first', skipped: 'shift' },
    },
    target: { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, timeoutMs: 5000 },
    priority: 'normal',
    lane: 'default',
    retry: { maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] },
    misfirePolicy: 'fire_once',
    overlapPolicy: 'allow',
    metadata: null,
    tags: null,
    jitterS: 0,
    pauseAfterFailures: null,
    callbacks: null,
    workflow: null,
    state: 'active',
    pausedReason: null,
    nextFireAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/** A one-shot task due at `at`. */
export function onceTask(tenantId: string, at: Date, overrides: Partial<Task> = {}): Task {
  return cronTask(tenantId, {
    name: 'once',
    schedule: { type: 'once', at },
    nextFireAt: at,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  });
}

/** Stores a task row in `partition` (0 unless given), bypassing task-api's quota. */
export async function createTask(pool: Pool, task: Task, partition = 0): Promise<Task> {
  await insertTask(pool, task, partition);
  return task;
}

export interface JobRowSpec {
  tenantId: string;
  taskId: string | null;
  /** The job's partition (its task's: createTask's default 0 unless given); its id carries it. */
  partition?: number;
  scheduledFor: Date;
  state: 'pending' | 'running' | 'succeeded' | 'dead' | 'cancelled';
  attempt?: number;
  maxAttempts?: number;
  kind?: 'scheduled' | 'trigger' | 'backfill';
  claimedBy?: string;
  leaseExpiresAt?: Date | null;
  deadlineAt?: Date | null;
  finishedAt?: Date | null;
  lastStatus?: number | null;
  targetUrl?: string;
  /** Copied from its task or workflow, as the job insert does; with their index rows. */
  tags?: Tags;
}

/** Inserts jobs (and one attempt row per attempt made); returns their ids in the given order. */
export async function insertJobs(pool: Pool, specs: JobRowSpec[]): Promise<string[]> {
  const ids = specs.map((s) => newId(Date.now(), s.partition ?? 0));
  const retry = JSON.stringify({ maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] });
  const target = (url = 'http://127.0.0.1:9/') =>
    JSON.stringify({ url, method: 'POST', headers: {}, timeoutMs: 120_000 });
  for (let i = 0; i < specs.length; i += CHUNK) {
    const jobs: unknown[][] = [];
    const attempts: unknown[][] = [];
    const tagRows: unknown[][] = [];
    specs.slice(i, i + CHUNK).forEach((s, j) => {
      const id = idToBin(ids[i + j]!);
      const kind = s.kind ?? 'scheduled';
      const attempt = s.attempt ?? (s.state === 'pending' ? 0 : 1);
      const terminal = s.state === 'succeeded' || s.state === 'dead' || s.state === 'cancelled';
      const started = new Date(s.scheduledFor.getTime() + 5);
      const finished =
        s.finishedAt !== undefined ? s.finishedAt : terminal ? new Date(started.getTime() + 20) : null;
      jobs.push([
        id,
        idToBin(s.tenantId),
        s.taskId ? idToBin(s.taskId) : null,
        kind === 'scheduled' ? s.scheduledFor.toISOString() : `${kind}:${ids[i + j]}`,
        kind,
        s.scheduledFor,
        2,
        'default',
        s.state,
        attempt,
        s.maxAttempts ?? 3,
        s.scheduledFor,
        s.state === 'running' ? (s.claimedBy ?? 'executor-test') : null,
        s.leaseExpiresAt ?? null,
        s.deadlineAt ?? null,
        target(s.targetUrl),
        retry,
        s.lastStatus !== undefined
          ? s.lastStatus
          : s.state === 'succeeded'
            ? 200
            : s.state === 'dead'
              ? 500
              : null,
        s.state === 'dead' ? 'HTTP 500' : null,
        attempt > 0 ? started : null,
        finished,
        s.scheduledFor,
        s.scheduledFor,
        s.tags ? JSON.stringify(normaliseTags(s.tags)) : null,
        s.partition ?? 0,
      ]);
      for (const tag of tagStrings(s.tags))
        tagRows.push([idToBin(s.tenantId), tag, s.scheduledFor, id, s.partition ?? 0]);
      for (let a = 1; a <= attempt; a++) {
        const last = a === attempt;
        const open = last && !terminal;
        attempts.push([
          id,
          a,
          s.claimedBy ?? 'executor-test',
          started,
          open ? null : (finished ?? started),
          open ? null : last && s.state === 'succeeded' ? 200 : 500,
          open ? null : last && s.state === 'succeeded' ? null : 'http_status',
          open ? null : last && s.state === 'succeeded' ? null : 'HTTP 500',
          open ? null : 20,
          s.partition ?? 0,
        ]);
      }
    });
    await pool.query(
      `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state, attempt,
         max_attempts, run_at, claimed_by, lease_expires_at, deadline_at, target, retry, last_status, last_error,
         started_at, finished_at, created_at, updated_at, tags, \`partition\`) VALUES ?`,
      [jobs],
    );
    if (tagRows.length > 0) {
      await pool.query('INSERT INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`) VALUES ?', [
        tagRows,
      ]);
    }
    if (attempts.length > 0) {
      await pool.query(
        `INSERT INTO job_attempts (job_id, attempt, executor, started_at, finished_at, status, error_class, error,
           duration_ms, \`partition\`) VALUES ?`,
        [attempts],
      );
    }
  }
  return ids;
}
