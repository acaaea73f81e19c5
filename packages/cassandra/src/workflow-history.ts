import {
  type ArchivedWorkflow,
  type Cursor,
  MIN_ID,
  matchesTags,
  type NodePlace,
  type NodeRecord,
  type NodeState,
  nodeBucketCount,
  nodeRecordFromJson,
  type Tags,
  tagStrings,
  type WorkflowState,
  workflowRecordFromJson,
} from '@dsched/domain';
import cassandra from 'cassandra-driver';
import { HISTORY_WRITES } from './client.ts';
import { loadCql } from './cql.ts';
import { drivingTag, holdsHashes, keptRows } from './history-reads.ts';
import { tagHashes, tenantBucket } from './job-history.ts';

const { Uuid, Long } = cassandra.types;

// Finished workflow runs in history (docs/history.md "Workflows"). The archiver writes a run's
// nodes a page at a time, in buckets of consecutive node ids (and by state), then its summary
// last; task-api reads the summary and pages the nodes back through the buckets. Every write is
// an upsert keyed by the run, its copy's version and the node, so a copy repeated after a crash
// leaves one row of each node.

const INSERT_RUN = loadCql(import.meta.url, './workflows/insert-run.cql');
const RUN_BY_ID = loadCql(import.meta.url, './workflows/run-by-id.cql');
const INSERT_NODE = loadCql(import.meta.url, './workflows/insert-node.cql');
const INSERT_NODE_BY_STATE = loadCql(import.meta.url, './workflows/insert-node-by-state.cql');
const INSERT_PARENT = loadCql(import.meta.url, './workflows/insert-parent.cql');
const NODES_PAGE = loadCql(import.meta.url, './workflows/nodes-page.cql');
const NODES_BY_STATE_PAGE = loadCql(import.meta.url, './workflows/nodes-by-state-page.cql');
const PARENTS_PAGE = loadCql(import.meta.url, './workflows/parents-page.cql');
const NODE_BY_ID = loadCql(import.meta.url, './workflows/node-by-id.cql');
const INSERT_TENANT_RUN = loadCql(import.meta.url, './workflows/insert-tenant-run.cql');
const INSERT_TENANT_RUN_BUCKET = loadCql(import.meta.url, './workflows/insert-tenant-run-bucket.cql');
const TENANT_RUN_BUCKETS = loadCql(import.meta.url, './workflows/tenant-run-buckets.cql');
const TENANT_RUNS_PAGE = loadCql(import.meta.url, './workflows/tenant-runs-page.cql');

/** The runs list's `tag` of every run (a tag is never empty). */
const EVERY_RUN = '';

/** The parent id of each node's own row in workflow_run_parents (no node id is empty). */
const SELF = '';

export interface WriteOptions {
  ttlSeconds: number;
  concurrency: number;
}

/** The key every row of one copy of a run shares. */
interface CopyKey {
  workflowId: string;
  version: number;
}

function key(k: CopyKey): [cassandra.types.Uuid, cassandra.types.Long] {
  return [Uuid.fromString(k.workflowId), Long.fromNumber(k.version)];
}

async function run(
  client: cassandra.Client,
  statements: { query: string; params: unknown[] }[],
  options: WriteOptions,
): Promise<void> {
  if (statements.length === 0) return;
  await cassandra.concurrent.executeConcurrent(client, statements, {
    concurrencyLevel: options.concurrency,
    raiseOnFirstError: true,
    executionProfile: HISTORY_WRITES,
  });
}

/**
 * One page of a run's nodes, each at its place, and each node's own row of the parents table.
 */
export async function writeWorkflowNodes(
  client: cassandra.Client,
  copy: CopyKey,
  nodes: { node: NodeRecord; place: NodePlace }[],
  options: WriteOptions,
): Promise<void> {
  const [wf, version] = key(copy);
  const ttl = options.ttlSeconds;
  const statements = nodes.flatMap(({ node, place }) => {
    const doc = JSON.stringify({ ...node, bucket: undefined });
    return [
      { query: INSERT_NODE, params: [wf, version, place.bucket, node.nodeId, doc, ttl] },
      {
        query: INSERT_NODE_BY_STATE,
        params: [wf, version, node.state, place.stateBucket, node.nodeId, doc, ttl],
      },
      { query: INSERT_PARENT, params: [wf, version, node.nodeId, SELF, place.bucket, ttl] },
    ];
  });
  await run(client, statements, options);
}

/** Dependencies of a run, each with the bucket of its parent's document. */
export async function writeWorkflowParents(
  client: cassandra.Client,
  copy: CopyKey,
  edges: { parent: string; child: string; parentBucket: number }[],
  options: WriteOptions,
): Promise<void> {
  const [wf, version] = key(copy);
  await run(
    client,
    edges.map((e) => ({
      query: INSERT_PARENT,
      params: [wf, version, e.child, e.parent, e.parentBucket, options.ttlSeconds],
    })),
    options,
  );
}

/**
 * The run's summary: written last, once every node of the copy is written; then its rows in the
 * tenant's runs list (once for every run, once per tag), which point at the summary.
 */
export async function writeWorkflowRun(
  client: cassandra.Client,
  archived: ArchivedWorkflow,
  options: { ttlSeconds: number },
): Promise<void> {
  const { record } = archived;
  const id = Uuid.fromString(record.id);
  const tenant = Uuid.fromString(archived.tenantId);
  const ttl = options.ttlSeconds;
  await client.execute(
    INSERT_RUN,
    [id, tenant, Long.fromNumber(archived.version), JSON.stringify(archived), ttl],
    { prepare: true, executionProfile: HISTORY_WRITES },
  );
  const tags = tagStrings(record.tags);
  const hashes = tagHashes(tags);
  const bucket = tenantBucket(record.createdAt);
  await cassandra.concurrent.executeConcurrent(
    client,
    [EVERY_RUN, ...tags].flatMap((tag) => [
      {
        query: INSERT_TENANT_RUN,
        params: [tenant, tag, bucket, record.createdAt, id, record.state, record.name, hashes, ttl],
      },
      { query: INSERT_TENANT_RUN_BUCKET, params: [tenant, tag, bucket, ttl] },
    ]),
    { concurrencyLevel: 8, raiseOnFirstError: true, executionProfile: HISTORY_WRITES },
  );
}

async function everyRunBuckets(
  client: cassandra.Client,
  tenant: cassandra.types.Uuid,
  from: Date,
  to: Date,
): Promise<Date[]> {
  const rs = await client.execute(
    TENANT_RUN_BUCKETS,
    [tenant, EVERY_RUN, tenantBucket(from), tenantBucket(to)],
    {
      prepare: true,
      fetchSize: 5000,
    },
  );
  const buckets: Date[] = [];
  for await (const row of rs) buckets.push(row.get('bucket') as Date);
  return buckets;
}

export interface ArchivedRunsQuery {
  tenantId: string;
  state?: WorkflowState | undefined;
  name?: string | undefined;
  tags?: Tags | undefined;
  /** Runs created at or after `from`, strictly before the cursor (created_at, id). */
  from: Date;
  cursor: Cursor;
  limit: number;
}

/**
 * A page of a tenant's archived runs, newest first by creation: the list of one of the filter's
 * tags (or of every run), bucket by bucket through its directory, keeping the index rows whose
 * state, name and tags match; then their summaries. Also returns whether more may follow.
 */
export async function archivedWorkflowRuns(
  client: cassandra.Client,
  q: ArchivedRunsQuery,
): Promise<{ items: ArchivedWorkflow[]; more: boolean }> {
  const tenant = Uuid.fromString(q.tenantId);
  const { tag, hashes, buckets } = q.tags
    ? await drivingTag(client, TENANT_RUN_BUCKETS, tenant, q.tags, { from: q.from, to: q.cursor.at })
    : { tag: EVERY_RUN, hashes: [], buckets: await everyRunBuckets(client, tenant, q.from, q.cursor.at) };
  const bounds = [q.from, Uuid.fromString(MIN_ID), q.cursor.at, Uuid.fromString(q.cursor.id)];
  const ids: string[] = [];
  for (const bucket of buckets) {
    const kept = await keptRows(
      client,
      TENANT_RUNS_PAGE,
      [tenant, tag, bucket, ...bounds],
      q.limit + 1 - ids.length,
      (r) =>
        (q.state === undefined || r.get('state') === q.state) &&
        (q.name === undefined || r.get('name') === q.name) &&
        holdsHashes(r, hashes)
          ? (r.get('id').toString() as string)
          : undefined,
    );
    ids.push(...kept);
    if (ids.length > q.limit) break;
  }
  const runs = await Promise.all(
    ids.slice(0, q.limit).map((id) => getArchivedWorkflow(client, q.tenantId, id)),
  );
  const items = runs.filter(
    (r): r is ArchivedWorkflow =>
      r !== null &&
      matchesTags(r.record.tags, q.tags) &&
      (q.state === undefined || r.record.state === q.state) &&
      (q.name === undefined || r.record.name === q.name),
  );
  return { items, more: ids.length > q.limit };
}

/** An archived run of a tenant, or null (another tenant's run is not found either). */
export async function getArchivedWorkflow(
  client: cassandra.Client,
  tenantId: string,
  id: string,
): Promise<ArchivedWorkflow | null> {
  const run = await archivedRunById(client, id);
  return run && run.tenantId === tenantId ? run : null;
}

/** An archived run by id, whoever's it is: for a caller that proves its right otherwise. */
async function archivedRunById(client: cassandra.Client, id: string): Promise<ArchivedWorkflow | null> {
  const row = (await client.execute(RUN_BY_ID, [Uuid.fromString(id)], { prepare: true })).first();
  if (!row) return null;
  const parsed = JSON.parse(row.get('doc')) as ArchivedWorkflow;
  return { ...parsed, record: workflowRecordFromJson(JSON.stringify(parsed.record)) };
}

/**
 * One node of a run in history, whoever's the run is, or null: a signal URL's check, where the
 * token (derived from the run, the node and its job) proves the caller's right, not a key. The
 * node's own row in the parents table names its bucket.
 */
export async function archivedWorkflowNode(
  client: cassandra.Client,
  workflowId: string,
  nodeId: string,
): Promise<NodeRecord | null> {
  const run = await archivedRunById(client, workflowId);
  if (!run) return null;
  const [id, version] = key({ workflowId, version: run.version });
  const self = (
    await client.execute(PARENTS_PAGE, [id, version, nodeId, SELF, 1], { prepare: true })
  ).first();
  if (!self || self.get('parent_id') !== SELF) return null;
  const row = (
    await client.execute(NODE_BY_ID, [id, version, Number(self.get('parent_bucket')), nodeId], {
      prepare: true,
    })
  ).first();
  return row ? nodeRecordFromJson(row.get('doc')) : null;
}

/**
 * A page of an archived run's nodes in node id order after `afterNodeId`, optionally of one state,
 * starting at the bucket the previous page ended in. Each node carries its bucket.
 */
export async function archivedWorkflowNodes(
  client: cassandra.Client,
  wf: ArchivedWorkflow,
  page: { limit: number; afterNodeId?: string; bucket?: number; state?: NodeState },
): Promise<NodeRecord[]> {
  const [id, version] = key({ workflowId: wf.record.id, version: wf.version });
  const buckets = nodeBucketCount(page.state ? wf.record.nodes[page.state] : wf.record.nodeCount);
  const out: NodeRecord[] = [];
  for (let b = page.bucket ?? 0; b < buckets && out.length < page.limit; b += 1) {
    const want = page.limit - out.length;
    const rs = page.state
      ? await client.execute(
          NODES_BY_STATE_PAGE,
          [id, version, page.state, b, page.afterNodeId ?? '', want],
          {
            prepare: true,
          },
        )
      : await client.execute(NODES_PAGE, [id, version, b, page.afterNodeId ?? '', want], { prepare: true });
    for (const r of rs.rows) out.push({ ...nodeRecordFromJson(r.get('doc')), bucket: b });
  }
  return out;
}

/**
 * A page of one node's parents in parent id order after `afterNodeId`, with their documents;
 * null when the run has no such node.
 */
export async function archivedWorkflowParents(
  client: cassandra.Client,
  wf: ArchivedWorkflow,
  nodeId: string,
  page: { limit: number; afterNodeId?: string },
): Promise<NodeRecord[] | null> {
  const [id, version] = key({ workflowId: wf.record.id, version: wf.version });
  const after = page.afterNodeId ?? SELF;
  // `>=` and one row more: the first page sees the node's own row (it exists), a later page the
  // previous page's last parent; both are dropped.
  const rs = await client.execute(PARENTS_PAGE, [id, version, nodeId, after, page.limit + 1], {
    prepare: true,
  });
  if (after === SELF && !rs.rows.some((r) => r.get('parent_id') === SELF)) return null;
  const parents = rs.rows
    .filter((r) => r.get('parent_id') !== after)
    .slice(0, page.limit)
    .map((r) => ({ nodeId: String(r.get('parent_id')), bucket: Number(r.get('parent_bucket')) }));
  const docs = await Promise.all(
    parents.map(async (p) => {
      const row = (
        await client.execute(NODE_BY_ID, [id, version, p.bucket, p.nodeId], { prepare: true })
      ).first();
      return row ? nodeRecordFromJson(row.get('doc')) : null;
    }),
  );
  return docs.filter((d): d is NodeRecord => d !== null);
}
