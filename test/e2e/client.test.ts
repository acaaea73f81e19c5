import { createDschedClient, DschedApiError, type Job, PageTokenError } from '@dsched/client';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// @dsched/client against job-api and task-api as processes: the paging iterator walks 10,000
// runs (rows written straight with SQL, read through the real job-api) with no gap and no
// repeat; a saved token resumes the walk; a refused token is a PageTokenError, never a silent
// restart; a 429 is retried after Retry-After, or surfaces typed when retries are off.

const N = 10_000;
const ADMIN = 'client-admin-token-0123456789abcdef';
const { db, ks } = useTestStores(import.meta.url);
let taskApi: RunningService;
let jobApi: RunningService;

beforeAll(async () => {
  const env = { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace, DSCHED_ADMIN_TOKEN: ADMIN };
  [taskApi, jobApi] = await Promise.all([startService('task-api', env), startService('job-api', env)]);
});
afterAll(async () => {
  await Promise.all([taskApi?.stop(), jobApi?.stop()]);
});

/** Counts the requests a client makes, and the statuses it got. */
function countingFetch() {
  const statuses: number[] = [];
  const counted: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    statuses.push(res.status);
    return res;
  };
  return { statuses, fetch: counted };
}

describe('paging', () => {
  const start = Date.UTC(2026, 10, 25, 0, 0);
  const range = { from: new Date(start).toISOString(), to: new Date(start + 86_400_000).toISOString() };
  let taskId: string;
  let expected: string[];
  let apiKey: string;

  beforeAll(async () => {
    const tenant = await createTenantWithKey(db.pool, 'pager');
    apiKey = tenant.apiKey;
    taskId = (await createTask(db.pool, cronTask(tenant.id))).id;
    // Two runs per scheduled instant (a scheduled one and a backfill, which has a key of its
    // own), so the order within one instant, by id, is walked too.
    const specs = Array.from({ length: N }, (_, i) => ({
      tenantId: tenant.id,
      taskId,
      kind: i % 2 === 0 ? ('scheduled' as const) : ('backfill' as const),
      scheduledFor: new Date(start + Math.floor(i / 2) * 8_000),
      state: i % 97 === 0 ? ('dead' as const) : ('succeeded' as const),
    }));
    const ids = await insertJobs(db.pool, specs);
    const rows = ids.map((id, i) => ({ id, at: specs[i]!.scheduledFor.getTime() }));
    rows.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    expected = rows.map((r) => r.id);
  });

  it('walks 10,000 runs newest first with no gap and no repeat', async () => {
    const counter = countingFetch();
    const client = createDschedClient({ jobApi: jobApi.url, apiKey, fetch: counter.fetch });
    const seen: string[] = [];
    for await (const run of client.runs(taskId, { ...range, limit: 500 })) seen.push(run.id);
    expect(seen).toHaveLength(N);
    expect(new Set(seen).size).toBe(N);
    expect(seen).toEqual(expected);
    expect(counter.statuses).toEqual(Array(N / 500).fill(200));
  });

  it('the tenant’s jobs by state, in odd-sized pages', async () => {
    const client = createDschedClient({ jobApi: jobApi.url, apiKey });
    const dead = await client.jobs({ ...range, state: 'dead', limit: 7 }).toArray();
    expect(dead.map((j: Job) => j.id)).toEqual(expected.filter((id) => dead.some((d) => d.id === id)));
    expect(dead).toHaveLength(Math.ceil(N / 97));
  });

  it('a saved token resumes the walk where it stopped', async () => {
    const client = createDschedClient({ jobApi: jobApi.url, apiKey });
    const first = client.runs(taskId, { ...range, limit: 300 });
    const seen: string[] = [];
    let pages = 0;
    for await (const page of first.pages()) {
      seen.push(...page.items.map((r) => r.id));
      if (++pages === 3) break;
    }
    const saved = first.pageToken;
    expect(saved).toBeDefined();
    for await (const run of client.runs(taskId, { ...range, limit: 300, pageToken: saved! }))
      seen.push(run.id);
    expect(seen).toEqual(expected);
  });

  it('a token the API refuses is a PageTokenError, and the walk does not restart', async () => {
    const client = createDschedClient({ jobApi: jobApi.url, apiKey });
    const walk = client.runs(taskId, { ...range, limit: 100 });
    const firstPage = (await walk.pages().next()).value!;
    expect(firstPage.items).toHaveLength(100);
    // The same token against another query (another range) is refused by the API.
    const other = client.runs(taskId, { from: range.from, limit: 100, pageToken: walk.pageToken! });
    const err = await other.toArray().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageTokenError);
    expect((err as PageTokenError).code).toBe('invalid_argument');
    expect((err as PageTokenError).issueFor('pageToken')).toMatch(/another query/);
    const garbage = await client
      .runs(taskId, { ...range, pageToken: 'not-a-token!' })
      .toArray()
      .catch((e: unknown) => e);
    expect(garbage).toBeInstanceOf(PageTokenError);
  });
});

describe('429', () => {
  it('retries after Retry-After until the call is admitted; typed when retries are off', async () => {
    const admin = createDschedClient({ taskApi: taskApi.url, adminToken: ADMIN });
    const tenant = await admin.createTenant({ name: 'limited', rateLimitPerSecond: 2 });
    const counter = countingFetch();
    const client = createDschedClient({ taskApi: taskApi.url, apiKey: tenant.apiKey, fetch: counter.fetch });
    const pages = await Promise.all(Array.from({ length: 6 }, () => client.listTasks()));
    expect(pages.every((p) => Array.isArray(p.tasks))).toBe(true);
    expect(counter.statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(counter.statuses.filter((s) => s === 200)).toHaveLength(6);

    const impatient = createDschedClient({ taskApi: taskApi.url, apiKey: tenant.apiKey, retries: 0 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => impatient.listTasks()));
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason);
    expect(refused.length).toBeGreaterThan(0);
    for (const err of refused) {
      expect(err).toBeInstanceOf(DschedApiError);
      expect(err).toMatchObject({ status: 429, code: 'resource_exhausted', retryAfterMs: 1000 });
    }
  });
});
