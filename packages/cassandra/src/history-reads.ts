import {
  type AuditedJob,
  type Cursor,
  type JobState,
  type JobView,
  MIN_ID,
  matchesTags,
  type Tags,
  tagStrings,
} from '@dsched/domain';
import cassandra from 'cassandra-driver';
import { loadCql } from './cql.ts';
import { tagHashes, tenantBucket } from './job-history.ts';

const { Uuid, LocalDate } = cassandra.types;

// Newest-first slices of history for job-api's lists and the audit. Each list walks its
// partitions (days of a task, buckets of a tenant) from the cursor backwards, a few partitions at
// a time, each read bounded by the cursor and `from` on the clustering key (scheduled_for, id),
// and stops as soon as it holds one item more than the page.

export interface Slice {
  items: JobView[];
  more: boolean;
}

const PARTITIONS_IN_FLIGHT = 4;

const RUNS_PAGE = loadCql(import.meta.url, './history/task-runs-page.cql');
const TENANT_PAGE = loadCql(import.meta.url, './history/tenant-jobs-page.cql');
const TENANT_STATE_PAGE = loadCql(import.meta.url, './history/tenant-jobs-by-state-page.cql');
const BUCKETS = loadCql(import.meta.url, './history/tenant-buckets.cql');
const DOC_BY_ID = loadCql(import.meta.url, './history/job-by-id.cql');
const AUDIT_RUNS = loadCql(import.meta.url, './history/audit-task-runs.cql');
const TAG_BUCKETS = loadCql(import.meta.url, './history/tenant-tag-buckets.cql');
const TAG_PAGE = loadCql(import.meta.url, './history/tenant-jobs-by-tag-page.cql');

const MIN_UUID = Uuid.fromString(MIN_ID);

/** Reads partitions in order, a few at a time, until `want` rows are collected. */
async function collect<P, R>(
  partitions: P[],
  want: number,
  read: (p: P, remaining: number) => Promise<R[]>,
  inFlight = PARTITIONS_IN_FLIGHT,
): Promise<{ rows: R[]; exhausted: boolean }> {
  const rows: R[] = [];
  for (let i = 0; i < partitions.length; i += inFlight) {
    const window = partitions.slice(i, i + inFlight);
    const results = await Promise.all(window.map((p) => read(p, want - rows.length)));
    for (const r of results) {
      rows.push(...r);
      if (rows.length >= want) return { rows: rows.slice(0, want), exhausted: false };
    }
  }
  return { rows, exhausted: true };
}

/**
 * The rows of one partition's slice that `keep` accepts, at most `want`, read a page at a time
 * (`fetchSize`) so a filter that drops most rows never holds the whole partition in memory.
 */
export async function keptRows<R>(
  client: cassandra.Client,
  query: string,
  params: unknown[],
  want: number,
  keep: (row: cassandra.types.Row) => R | undefined,
): Promise<R[]> {
  const out: R[] = [];
  // Paged by hand: the driver's async iterator fetches the next page ahead, and a walk that stops
  // early would leave that read running on its own (its failure unhandled).
  let pageState: string | undefined;
  do {
    const rs = await client.execute(query, params, {
      prepare: true,
      fetchSize: Math.max(100, want * 2),
      ...(pageState ? { pageState } : {}),
    });
    for (const row of rs.rows) {
      const kept = keep(row);
      if (kept !== undefined) out.push(kept);
      if (out.length >= want) return out;
    }
    pageState = rs.pageState ?? undefined;
  } while (pageState);
  return out;
}

/** Whether an index row's tag hashes hold every hash of `wanted` (strings of the signed values). */
export function holdsHashes(row: cassandra.types.Row, wanted: string[]): boolean {
  const held = new Set(((row.get('tag_hashes') as cassandra.types.Long[] | null) ?? []).map(String));
  return wanted.every((h) => held.has(h));
}

/**
 * The filter's tag whose directory lists the fewest non-empty buckets in the range, with those
 * buckets: any tag would do (each index row carries all the job's hashes), the rarest reads least.
 * One directory read per tag of the filter (at most 5), in parallel.
 */
export async function drivingTag(
  client: cassandra.Client,
  directory: string,
  tenant: cassandra.types.Uuid,
  filter: Tags,
  range: { from: Date; to: Date },
): Promise<{ tag: string; hashes: string[]; buckets: Date[] }> {
  const tags = tagStrings(filter);
  const listed = await Promise.all(
    tags.map(async (tag) => {
      const rs = await client.execute(
        directory,
        [tenant, tag, tenantBucket(range.from), tenantBucket(range.to)],
        {
          prepare: true,
          fetchSize: 5000,
        },
      );
      const buckets: Date[] = [];
      for await (const row of rs) buckets.push(row.get('bucket') as Date);
      return { tag, buckets };
    }),
  );
  const rarest = listed.reduce((a, b) => (b.buckets.length < a.buckets.length ? b : a));
  return { ...rarest, hashes: tagHashes(tags).map(String) };
}

/** Partitions of a tag read in flight: a sparse tag's buckets hold a few rows each. */
const TAG_PARTITIONS_IN_FLIGHT = 16;

/** UTC days from the cursor's day back to `from`'s day, newest first. */
function daysBack(from: Date, cursor: Cursor): cassandra.types.LocalDate[] {
  const out: cassandra.types.LocalDate[] = [];
  const first = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let d = cursor.at.getTime(); d >= first; d -= 86_400_000) {
    out.push(LocalDate.fromDate(new Date(d)));
    if (out.length > 400) break; // ranges are capped at 366 days
  }
  return out;
}

function bounds(from: Date, cursor: Cursor): unknown[] {
  return [from, MIN_UUID, cursor.at, Uuid.fromString(cursor.id)];
}

export async function archivedTaskRuns(
  client: cassandra.Client,
  q: { tenantId: string; taskId: string; tags?: Tags | undefined; from: Date; cursor: Cursor; limit: number },
): Promise<Slice> {
  const tenant = Uuid.fromString(q.tenantId);
  const task = Uuid.fromString(q.taskId);
  const { rows, exhausted } = await collect(
    daysBack(q.from, q.cursor),
    q.limit + 1,
    async (day, remaining) => {
      const params = [tenant, task, day, ...bounds(q.from, q.cursor)];
      if (!q.tags) {
        const rs = await client.execute(RUNS_PAGE, [...params, remaining], { prepare: true });
        return rs.rows.map((r) => JSON.parse(r.get('doc')) as JobView);
      }
      // A task's runs of a day are read whole anyway; the tags are checked on their documents.
      return keptRows(client, RUNS_PAGE, [...params, 100_000], remaining, (r) => {
        const doc = JSON.parse(r.get('doc')) as JobView;
        return matchesTags(doc.tags, q.tags) ? doc : undefined;
      });
    },
  );
  return { items: rows.slice(0, q.limit), more: !exhausted || rows.length > q.limit };
}

async function tenantBuckets(
  client: cassandra.Client,
  tenant: cassandra.types.Uuid,
  from: Date,
  cursor: Cursor,
) {
  const out: Date[] = [];
  const rs = await client.execute(BUCKETS, [tenant, tenantBucket(from), tenantBucket(cursor.at)], {
    prepare: true,
    fetchSize: 5000,
  });
  for await (const row of rs) out.push(row.get('bucket') as Date);
  return out;
}

/** Documents of the given ids, in the given order; ids without a document are dropped. */
export async function archivedDocs(
  client: cassandra.Client,
  tenantId: string,
  ids: string[],
): Promise<JobView[]> {
  const docs = await Promise.all(
    ids.map(async (id) => {
      const row = (await client.execute(DOC_BY_ID, [Uuid.fromString(id)], { prepare: true })).first();
      if (!row || row.get('tenant_id')?.toString() !== tenantId) return null;
      return JSON.parse(row.get('doc')) as JobView;
    }),
  );
  return docs.filter((d): d is JobView => d !== null);
}

export async function archivedTenantJobs(
  client: cassandra.Client,
  q: {
    tenantId: string;
    state?: JobState | undefined;
    tags?: Tags | undefined;
    from: Date;
    cursor: Cursor;
    limit: number;
  },
): Promise<Slice> {
  if (q.tags) return archivedTaggedJobs(client, { ...q, tags: q.tags });
  const tenant = Uuid.fromString(q.tenantId);
  const buckets = await tenantBuckets(client, tenant, q.from, q.cursor);
  const { rows, exhausted } = await collect(buckets, q.limit + 1, async (bucket, remaining) => {
    const rs =
      q.state === undefined
        ? await client.execute(TENANT_PAGE, [tenant, bucket, ...bounds(q.from, q.cursor), remaining], {
            prepare: true,
          })
        : await client.execute(
            TENANT_STATE_PAGE,
            [tenant, q.state, bucket, ...bounds(q.from, q.cursor), remaining],
            { prepare: true },
          );
    return rs.rows.map((r) => r.get('id').toString() as string);
  });
  const ids = rows.slice(0, q.limit);
  let items = await archivedDocs(client, q.tenantId, ids);
  // A job archived dead, then redriven and archived again, leaves a stale index row of its old
  // state: the document (rewritten at every archive) has the final word.
  if (q.state !== undefined) items = items.filter((d) => d.state === q.state);
  return { items, more: !exhausted || rows.length > q.limit };
}

/**
 * A tenant's archived jobs with every tag of `tags` (docs/tags.md): the buckets of one of the tags
 * (its directory), newest first, each read from the cursor back to `from`, keeping the index rows
 * whose state and tag hashes match; then the page's documents, which have the final word.
 */
async function archivedTaggedJobs(
  client: cassandra.Client,
  q: {
    tenantId: string;
    state?: JobState | undefined;
    tags: Tags;
    from: Date;
    cursor: Cursor;
    limit: number;
  },
): Promise<Slice> {
  const tenant = Uuid.fromString(q.tenantId);
  const { tag, hashes, buckets } = await drivingTag(client, TAG_BUCKETS, tenant, q.tags, {
    from: q.from,
    to: q.cursor.at,
  });
  const { rows, exhausted } = await collect(
    buckets,
    q.limit + 1,
    (bucket, remaining) =>
      keptRows(client, TAG_PAGE, [tenant, tag, bucket, ...bounds(q.from, q.cursor)], remaining, (r) =>
        (q.state === undefined || r.get('state') === q.state) && holdsHashes(r, hashes)
          ? (r.get('id').toString() as string)
          : undefined,
      ),
    TAG_PARTITIONS_IN_FLIGHT,
  );
  const docs = await archivedDocs(client, q.tenantId, rows.slice(0, q.limit));
  const items = docs.filter(
    (d) => matchesTags(d.tags, q.tags) && (q.state === undefined || d.state === q.state),
  );
  return { items, more: !exhausted || rows.length > q.limit };
}

/** A task's archived scheduled and backfill jobs in [from, to), for the audit. */
export async function archivedOccurrenceJobs(
  client: cassandra.Client,
  q: { tenantId: string; taskId: string; from: Date; to: Date },
): Promise<AuditedJob[]> {
  const tenant = Uuid.fromString(q.tenantId);
  const task = Uuid.fromString(q.taskId);
  const days = daysBack(q.from, { at: new Date(q.to.getTime() - 1), id: MIN_ID });
  const out: AuditedJob[] = [];
  for (let i = 0; i < days.length; i += PARTITIONS_IN_FLIGHT) {
    const results = await Promise.all(
      days.slice(i, i + PARTITIONS_IN_FLIGHT).map(async (day) => {
        const jobs: AuditedJob[] = [];
        const rs = await client.execute(AUDIT_RUNS, [tenant, task, day, q.from, q.to], {
          prepare: true,
          fetchSize: 5000,
        });
        for await (const r of rs) {
          // Only rows written before runs_by_task had `kind` (migration 0002) lack it; the
          // archiver of that time wrote scheduled jobs only.
          const kind = (r.get('kind') as string | null) ?? 'scheduled';
          jobs.push({
            id: r.get('id').toString(),
            scheduledFor: r.get('scheduled_for') as Date,
            state: r.get('state') as JobState,
            kind,
          });
        }
        return jobs;
      }),
    );
    for (const r of results) out.push(...r);
  }
  return out;
}
