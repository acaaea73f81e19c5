import {
  decodePageToken,
  firstCursor,
  type JobState,
  type JobView,
  mergeNewestFirst,
  notFound,
  type Page,
  type PagePosition,
  type PageQuery,
  parseTagFilter,
  readPositionKey,
  resolveRange,
  tagFilterKey,
} from '@dsched/domain';
import type { DatabaseClock, JobSource, LiveJobs, Slice } from '../ports.ts';

// The lists of job-api: live jobs from MySQL and archived ones from history, merged newest first
// into pages with keyset tokens. A job's position (scheduledFor, id) never changes, so a job that
// moves from MySQL to history between two pages is still seen exactly once.

export interface ListDeps {
  live: LiveJobs;
  history: JobSource;
  now: DatabaseClock;
}

interface RangeQuery {
  from?: string | undefined;
  to?: string | undefined;
  /** `key:value`, repeatable: every one must match (docs/tags.md). */
  tag?: string | string[] | undefined;
  limit: number;
  pageToken?: string | undefined;
}

/** The first page resolves the range; later pages take their position from the token. */
async function position(deps: ListDeps, q: RangeQuery, pageQuery: PageQuery): Promise<PagePosition> {
  if (q.pageToken) return decodePageToken(q.pageToken, pageQuery, readPositionKey);
  const { from, to } = resolveRange(q, q.to === undefined ? await deps.now() : new Date(0));
  return { from, cursor: firstCursor(to) };
}

/** Drops archived copies of jobs that still have a MySQL row (MySQL has the current state). */
async function withoutLive(live: LiveJobs, archived: Slice): Promise<Slice> {
  const stillLive = await live.liveIds(archived.items.map((j) => j.id));
  return { items: archived.items.filter((j) => !stillLive.has(j.id)), more: archived.more };
}

export async function listTaskRuns(
  deps: ListDeps,
  tenantId: string,
  taskId: string,
  q: RangeQuery,
): Promise<Page<JobView>> {
  const tags = parseTagFilter(q.tag);
  if (!(await deps.live.taskBelongsTo(tenantId, taskId))) throw notFound('task');
  // A token is bound to the query that made it: this list, this task, this range, these tags.
  const pageQuery: PageQuery = {
    list: 'GET /v1/tasks/{id}/runs',
    filters: { tenant: tenantId, task: taskId, from: q.from, to: q.to, tags: tagFilterKey(tags) },
  };
  const { from, cursor } = await position(deps, q, pageQuery);
  const query = { tenantId, taskId, tags, from, cursor, limit: q.limit };
  const [live, archived] = await Promise.all([deps.live.taskRuns(query), deps.history.taskRuns(query)]);
  return mergeNewestFirst([live, await withoutLive(deps.live, archived)], q.limit, {
    query: pageQuery,
    from,
  });
}

export async function listTenantJobs(
  deps: ListDeps,
  tenantId: string,
  q: RangeQuery & { state?: JobState | undefined },
): Promise<Page<JobView>> {
  const tags = parseTagFilter(q.tag);
  const pageQuery: PageQuery = {
    list: 'GET /v1/jobs',
    filters: { tenant: tenantId, state: q.state, from: q.from, to: q.to, tags: tagFilterKey(tags) },
  };
  const { from, cursor } = await position(deps, q, pageQuery);
  const query = { tenantId, state: q.state, tags, from, cursor, limit: q.limit };
  // Only terminal jobs are archived: a pending or running list needs no history read.
  const archivedStates: (JobState | undefined)[] = [undefined, 'succeeded', 'dead', 'cancelled'];
  const [live, archived] = await Promise.all([
    deps.live.tenantJobs(query),
    archivedStates.includes(q.state)
      ? deps.history.tenantJobs(query)
      : Promise.resolve({ items: [], more: false }),
  ]);
  return mergeNewestFirst([live, await withoutLive(deps.live, archived)], q.limit, {
    query: pageQuery,
    from,
  });
}

/** Later than any scheduled time, and still a valid DATETIME. */
const END_OF_TIME = new Date('9999-12-31T00:00:00.000Z');

/**
 * The DLQ: the tenant's dead jobs still in MySQL, newest first. A dead job stays there for the
 * DLQ retention (DLQ_RETENTION_S) unless redriven; after that it is history (GET /v1/jobs?state=dead).
 */
export async function listDlq(
  deps: ListDeps,
  tenantId: string,
  q: { limit: number; pageToken?: string | undefined; tag?: string | string[] | undefined },
): Promise<Page<JobView>> {
  const tags = parseTagFilter(q.tag);
  const pageQuery: PageQuery = {
    list: 'GET /v1/dlq',
    filters: { tenant: tenantId, tags: tagFilterKey(tags) },
  };
  const { from, cursor } = q.pageToken
    ? decodePageToken(q.pageToken, pageQuery, readPositionKey)
    : { from: new Date(0), cursor: firstCursor(END_OF_TIME) };
  const live = await deps.live.tenantJobs({ tenantId, state: 'dead', tags, from, cursor, limit: q.limit });
  return mergeNewestFirst([live], q.limit, { query: pageQuery, from });
}
