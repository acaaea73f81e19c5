import { type JobView, tagHash, tagStrings } from '@dsched/domain';
import cassandra from 'cassandra-driver';
import { HISTORY_WRITES } from './client.ts';
import { loadCql } from './cql.ts';

const { Uuid, LocalDate, Long } = cassandra.types;

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
const INSERT_TAG_JOB = loadCql(import.meta.url, './history/insert-tenant-job-by-tag.cql');
const INSERT_TAG_BUCKET = loadCql(import.meta.url, './history/insert-tenant-tag-bucket.cql');
const JOB_BY_ID = loadCql(import.meta.url, './history/job-by-id.cql');

/** The tag hashes an index row carries, as the driver writes a set<bigint>. */
export function tagHashes(tags: string[]): cassandra.types.Long[] {
  return tags.map((t) => Long.fromString(tagHash(t).toString()));
}

export function utcDay(iso: string): cassandra.types.LocalDate {
  return LocalDate.fromString(iso.slice(0, 10));
}

/** The most rows, and about the most bytes, one unlogged batch of one partition carries. */
const BATCH_ROWS = 100;
const BATCH_BYTES = 32 * 1024;

interface Row {
  query: string;
  params: unknown[];
  /** The row's partition within its table (rows of one partition can share a batch). */
  partition: string;
  /** About what the row weighs on the wire (its document, if any). */
  bytes: number;
}

/**
 * Writes the records' rows: one per job in each table, one per (tenant, bucket) in the directory.
 * Rows of one partition of one table go together in unlogged batches (a batch of one partition is
 * one mutation in Cassandra: one commit log entry and one memtable update instead of one each per
 * row, and one request). A batch never spans partitions, so no coordinator fans one out across
 * replicas. Jobs of a task-day or a tenant bucket are many during a peak; `jobs_by_id` rows are
 * each their own partition and go alone. Batches and lone rows run with bounded concurrency.
 */
export async function writeJobHistory(
  client: cassandra.Client,
  records: HistoryRecord[],
  options: { ttlSeconds: number; concurrency: number },
): Promise<void> {
  if (records.length === 0) return;
  const ttl = options.ttlSeconds;
  const rows: Row[] = [];
  const buckets = new Map<string, { tenant: cassandra.types.Uuid; bucket: Date }>();
  const tagBuckets = new Map<string, { tenant: cassandra.types.Uuid; tag: string; bucket: Date }>();
  for (const { tenantId, view } of records) {
    const id = Uuid.fromString(view.id);
    const tenant = Uuid.fromString(tenantId);
    const task = view.taskId ? Uuid.fromString(view.taskId) : null;
    const scheduled = new Date(view.scheduledFor);
    const bucket = tenantBucket(scheduled);
    const doc = JSON.stringify(view);
    const day = utcDay(view.scheduledFor);
    rows.push({
      query: INSERT_BY_ID,
      params: [id, tenant, task, scheduled, view.state, doc, ttl],
      partition: view.id,
      bytes: doc.length,
    });
    if (task) {
      rows.push({
        query: INSERT_RUN,
        params: [tenant, task, day, scheduled, id, view.state, view.kind, doc, ttl],
        partition: `${tenantId}/${view.taskId}/${day}`,
        bytes: doc.length,
      });
    }
    rows.push({
      query: INSERT_TENANT_JOB,
      params: [tenant, bucket, scheduled, id, view.state, ttl],
      partition: `${tenantId}/${bucket.getTime()}`,
      bytes: 64,
    });
    rows.push({
      query: INSERT_TENANT_STATE,
      params: [tenant, view.state, bucket, scheduled, id, ttl],
      partition: `${tenantId}/${view.state}/${bucket.getTime()}`,
      bytes: 64,
    });
    buckets.set(`${tenantId}/${bucket.getTime()}`, { tenant, bucket });
    // One index row per tag (docs/tags.md), each with the hashes of all the job's tags.
    const tags = tagStrings(view.tags);
    const hashes = tags.length > 0 ? tagHashes(tags) : [];
    for (const tag of tags) {
      const partition = `${tenantId}/${tag}/${bucket.getTime()}`;
      rows.push({
        query: INSERT_TAG_JOB,
        params: [tenant, tag, bucket, scheduled, id, view.state, hashes, ttl],
        partition,
        bytes: 64 + 8 * hashes.length,
      });
      tagBuckets.set(partition, { tenant, tag, bucket });
    }
  }
  // One directory row per (tenant, bucket) in the batch, not one per job.
  for (const [key, { tenant, bucket }] of buckets) {
    rows.push({ query: INSERT_BUCKET, params: [tenant, bucket, ttl], partition: key, bytes: 32 });
  }
  for (const [key, { tenant, tag, bucket }] of tagBuckets) {
    rows.push({ query: INSERT_TAG_BUCKET, params: [tenant, tag, bucket, ttl], partition: key, bytes: 48 });
  }
  await runBounded(partitionBatches(rows), options.concurrency, (group) =>
    group.length === 1
      ? client.execute(group[0]!.query, group[0]!.params, { prepare: true, executionProfile: HISTORY_WRITES })
      : client.batch(
          group.map((r) => ({ query: r.query, params: r.params })),
          { prepare: true, logged: false, executionProfile: HISTORY_WRITES },
        ),
  );
}

/** The rows grouped by table and partition, each group cut at BATCH_ROWS rows or BATCH_BYTES. */
export function partitionBatches<R extends { query: string; partition: string; bytes: number }>(
  rows: R[],
): R[][] {
  const open = new Map<string, { rows: R[]; bytes: number }>();
  const groups: R[][] = [];
  for (const row of rows) {
    const key = `${row.query}\n${row.partition}`;
    let group = open.get(key);
    if (group && (group.rows.length >= BATCH_ROWS || group.bytes + row.bytes > BATCH_BYTES)) {
      groups.push(group.rows);
      group = undefined;
    }
    if (!group) {
      group = { rows: [], bytes: 0 };
      open.set(key, group);
    }
    group.rows.push(row);
    group.bytes += row.bytes;
  }
  for (const group of open.values()) groups.push(group.rows);
  return groups;
}

/** Runs `fn` over the items with at most `limit` at once; the first failure rejects. */
async function runBounded<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    try {
      while (next < items.length) await fn(items[next++]!);
    } catch (err) {
      next = items.length; // the other workers start nothing more
      throw err;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
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
