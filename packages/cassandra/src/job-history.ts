import type { JobView } from '@dsched/domain';
import cassandra from 'cassandra-driver';
import { loadCql } from './cql.ts';

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

const INSERT_BY_ID = loadCql(import.meta.url, './history/insert-job-by-id.cql');
const INSERT_RUN = loadCql(import.meta.url, './history/insert-task-run.cql');
const INSERT_TENANT_JOB = loadCql(import.meta.url, './history/insert-tenant-job.cql');
const INSERT_TENANT_STATE = loadCql(import.meta.url, './history/insert-tenant-job-by-state.cql');
const INSERT_BUCKET = loadCql(import.meta.url, './history/insert-tenant-bucket.cql');
const JOB_BY_ID = loadCql(import.meta.url, './history/job-by-id.cql');

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
  const res = await client.execute(JOB_BY_ID, [Uuid.fromString(id)]);
  const row = res.first();
  if (!row || row.get('tenant_id')?.toString() !== tenantId) return null;
  return JSON.parse(row.get('doc')) as JobView;
}
