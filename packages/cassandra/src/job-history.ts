import type { JobView } from '@dsched/domain';
import cassandra from 'cassandra-driver';

const { Uuid, LocalDate } = cassandra.types;

// History writes. Every write is an upsert keyed by the job id (and its scheduled time), so
// writing a job twice (an archiver that crashed before its MySQL delete) leaves one row in each
// table. Statements are prepared (the client prepares by default) and run with bounded concurrency.

export interface HistoryRecord {
  tenantId: string;
  view: JobView;
}

/** Tenant index rows are grouped in buckets of this length (docs/history.md sizes them). */
export const TENANT_BUCKET_MS = 15 * 60 * 1000;

export function tenantBucket(at: Date | number): Date {
  const ms = typeof at === 'number' ? at : at.getTime();
  return new Date(Math.floor(ms / TENANT_BUCKET_MS) * TENANT_BUCKET_MS);
}

const INSERT_BY_ID =
  'INSERT INTO jobs_by_id (id, tenant_id, task_id, scheduled_for, state, doc) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?';
const INSERT_RUN =
  'INSERT INTO runs_by_task (tenant_id, task_id, day, scheduled_for, id, state, kind, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?) USING TTL ?';
const INSERT_TENANT_JOB =
  'INSERT INTO tenant_jobs (tenant_id, bucket, scheduled_for, id, state) VALUES (?, ?, ?, ?, ?) USING TTL ?';
const INSERT_TENANT_STATE =
  'INSERT INTO tenant_jobs_by_state (tenant_id, state, bucket, scheduled_for, id) VALUES (?, ?, ?, ?, ?) USING TTL ?';
const INSERT_BUCKET = 'INSERT INTO tenant_buckets (tenant_id, bucket) VALUES (?, ?) USING TTL ?';

export function utcDay(iso: string): cassandra.types.LocalDate {
  return LocalDate.fromString(iso.slice(0, 10));
}

export async function writeJobHistory(
  client: cassandra.Client,
  records: HistoryRecord[],
  options: { ttlSeconds: number; concurrency: number },
): Promise<void> {
  if (records.length === 0) return;
  const ttl = options.ttlSeconds;
  const statements: { query: string; params: unknown[] }[] = [];
  const buckets = new Map<string, { tenant: cassandra.types.Uuid; bucket: Date }>();
  for (const { tenantId, view } of records) {
    const id = Uuid.fromString(view.id);
    const tenant = Uuid.fromString(tenantId);
    const task = view.taskId ? Uuid.fromString(view.taskId) : null;
    const scheduled = new Date(view.scheduledFor);
    const bucket = tenantBucket(scheduled);
    const doc = JSON.stringify(view);
    statements.push({ query: INSERT_BY_ID, params: [id, tenant, task, scheduled, view.state, doc, ttl] });
    if (task) {
      statements.push({
        query: INSERT_RUN,
        params: [tenant, task, utcDay(view.scheduledFor), scheduled, id, view.state, view.kind, doc, ttl],
      });
    }
    statements.push({ query: INSERT_TENANT_JOB, params: [tenant, bucket, scheduled, id, view.state, ttl] });
    statements.push({ query: INSERT_TENANT_STATE, params: [tenant, view.state, bucket, scheduled, id, ttl] });
    buckets.set(`${tenantId}/${bucket.getTime()}`, { tenant, bucket });
  }
  // One directory row per (tenant, bucket) in the batch, not one per job.
  for (const { tenant, bucket } of buckets.values()) {
    statements.push({ query: INSERT_BUCKET, params: [tenant, bucket, ttl] });
  }
  await cassandra.concurrent.executeConcurrent(client, statements, {
    concurrencyLevel: options.concurrency,
    raiseOnFirstError: true,
  });
}

/** An archived job of a tenant, or null (another tenant's job is not found either). */
export async function getArchivedJob(
  client: cassandra.Client,
  tenantId: string,
  id: string,
): Promise<JobView | null> {
  const res = await client.execute('SELECT tenant_id, doc FROM jobs_by_id WHERE id = ?', [
    Uuid.fromString(id),
  ]);
  const row = res.first();
  if (!row || row.get('tenant_id')?.toString() !== tenantId) return null;
  return JSON.parse(row.get('doc')) as JobView;
}
