import { writeJobHistory } from '@dsched/cassandra/job-history';
import { allPartitions, DEFAULT_PARTITIONS, newId } from '@dsched/domain';
import { loadJobRecords } from '@dsched/mysql/jobs';
import { deleteArchivedJobs } from '@dsched/mysql/jobs/archive';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

const { db, ks } = useTestStores(import.meta.url);
let app: FastifyInstance;
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };

beforeAll(async () => {
  app = buildTestApp(db, ks);
  alice = await createTenantWithKey(db.pool, 'alice');
  bob = await createTenantWithKey(db.pool, 'bob');
});
afterAll(async () => {
  await app.close();
});

const get = (url: string, key: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
const post = (url: string, key: string, payload?: object) =>
  app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });

/** Moves jobs to history exactly as the archiver does: write, then fenced delete. */
async function archive(ids: string[]): Promise<void> {
  const records = await loadJobRecords(db.pool, ids);
  await writeJobHistory(ks.client, records, { ttlSeconds: 3600, concurrency: 16 });
  await deleteArchivedJobs(
    db.fixtures,
    records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })),
    allPartitions(DEFAULT_PARTITIONS),
  );
}

const hour = (h: number) => new Date(Date.UTC(2026, 10, 20, h));

describe('one job', () => {
  it('reads the same document live and archived, and 404 for another tenant', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const [id] = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: task.id, scheduledFor: hour(1), state: 'dead', attempt: 3 },
    ]);
    const live = await get(`/v1/jobs/${id}`, alice.apiKey);
    expect(live.statusCode).toBe(200);
    expect(live.json().attempts).toHaveLength(3);
    await archive([id!]);
    const archived = await get(`/v1/jobs/${id}`, alice.apiKey);
    expect(archived.json()).toEqual(live.json());
    const other = await get(`/v1/jobs/${id}`, bob.apiKey);
    const missing = await get(`/v1/jobs/${newId()}`, bob.apiKey);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it('answers 404, not an undocumented 414, for an id hundreds of characters long', async () => {
    const long = encodeURIComponent('Ṱ̺̺̕o͞ ̷i̲̬͇̪͙n̝̗͕v̟̜̘̦͟o̶̙̰̠kè͚̮̺̪̹̱̤ '.repeat(40));
    const res = await get(`/v1/jobs/${long}`, alice.apiKey);
    expect(res.statusCode).toBe(404);
  });
});

describe('a workflow node’s job', () => {
  it('carries workflowId and nodeId, live and archived', async () => {
    const workflowId = newId();
    const [id] = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: null, scheduledFor: hour(2), state: 'succeeded', attempt: 1 },
    ]);
    await db.fixtures.query(
      "UPDATE jobs SET kind = 'workflow', workflow_id = UNHEX(REPLACE(?, '-', '')), node_id = 'extract' WHERE id = UNHEX(REPLACE(?, '-', ''))",
      [workflowId, id],
    );
    const live = await get(`/v1/jobs/${id}`, alice.apiKey);
    expect(live.json()).toMatchObject({ taskId: null, workflowId, nodeId: 'extract', kind: 'workflow' });
    await archive([id!]);
    expect((await get(`/v1/jobs/${id}`, alice.apiKey)).json()).toEqual(live.json());
  });
});

describe('a task’s runs', () => {
  it('pages newest first over live and archived jobs with stable tokens', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const ids = await insertJobs(
      db.pool,
      Array.from({ length: 30 }, (_, i) => ({
        tenantId: alice.id,
        taskId: task.id,
        scheduledFor: hour(i),
        state: 'succeeded' as const,
      })),
    );
    // Half archived up front.
    await archive(ids.filter((_, i) => i % 2 === 0));
    const expected = [...ids].reverse().slice(0, 24); // [hour(6), hour(30)) only
    const url = `/v1/tasks/${task.id}/runs?from=${hour(6).toISOString()}&to=${hour(30).toISOString()}&limit=5`;
    const seen: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await get(`${url}${token ? `&pageToken=${token}` : ''}`, alice.apiKey);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { runs: { id: string }[]; nextPageToken?: string };
      seen.push(...body.runs.map((r) => r.id));
      // The rest moves to history mid-walk: positions do not change, so nothing is lost or repeated.
      if (page === 1) await archive(ids.filter((_, i) => i % 2 === 1));
      token = body.nextPageToken;
      if (!token) break;
    }
    expect(seen).toEqual(expected);
  });

  it('answers 404 for another tenant’s task', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    expect((await get(`/v1/tasks/${task.id}/runs`, bob.apiKey)).statusCode).toBe(404);
  });
});

describe('bad list queries', () => {
  it.each([
    ['/v1/jobs?from=2026-11-20T10:00:00Z&to=2026-11-20T09:00:00Z', 'from'],
    ['/v1/jobs?from=yesterday', 'from'],
    ['/v1/jobs?to=2026-13-01T00:00:00Z', 'to'],
    ['/v1/jobs?state=exploded', 'state'],
    ['/v1/jobs?limit=0', 'limit'],
    ['/v1/jobs?limit=501', 'limit'],
    ['/v1/jobs?pageToken=%%%', 'pageToken'],
    ['/v1/jobs?pageToken=eyJ2IjoxfQ', 'pageToken'],
    ['/v1/dlq?limit=abc', 'limit'],
    ['/v1/jobs?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const res = await get(url, alice.apiKey);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: { code: string; details: { field: string }[] } };
    expect(body.error.code).toBe('invalid_argument');
    expect(body.error.details.map((d) => d.field)).toContain(field);
  });

  it('refuses a page token replayed against another query', async () => {
    await insertJobs(
      db.pool,
      Array.from({ length: 3 }, (_, i) => ({
        tenantId: alice.id,
        taskId: null,
        scheduledFor: hour(i),
        state: 'succeeded' as const,
      })),
    );
    const first = await get(
      `/v1/jobs?state=succeeded&limit=1&from=${hour(0).toISOString()}&to=${hour(5).toISOString()}`,
      alice.apiKey,
    );
    const token = (first.json() as { nextPageToken: string }).nextPageToken;
    expect(token).toBeTruthy();
    const replay = await get(`/v1/jobs?state=dead&limit=1&pageToken=${token}`, alice.apiKey);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.details[0].field).toBe('pageToken');
  });

  it('refuses a page token on any list but the one that issued it, naming pageToken', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    await insertJobs(
      db.pool,
      Array.from({ length: 4 }, (_, i) => ({
        tenantId: alice.id,
        taskId: task.id,
        scheduledFor: hour(40 + i),
        state: i % 2 === 0 ? ('dead' as const) : ('succeeded' as const),
      })),
    );
    const range = `from=${hour(39).toISOString()}&to=${hour(45).toISOString()}`;
    const tokenOf = async (url: string) => {
      const res = await get(url, alice.apiKey);
      expect(res.statusCode).toBe(200);
      return (res.json() as { nextPageToken: string }).nextPageToken;
    };
    const lists = {
      runs: `/v1/tasks/${task.id}/runs?${range}&limit=1`,
      jobs: `/v1/jobs?${range}&limit=1`,
      dlq: '/v1/dlq?limit=1',
    };
    const tokens = {
      runs: await tokenOf(lists.runs),
      jobs: await tokenOf(lists.jobs),
      dlq: await tokenOf(lists.dlq),
    };
    for (const [list, url] of Object.entries(lists)) {
      for (const [from, token] of Object.entries(tokens)) {
        const res = await get(`${url}&pageToken=${token}`, alice.apiKey);
        if (from === list) expect([list, res.statusCode]).toEqual([list, 200]);
        else
          expect([from, list, res.statusCode, res.json().error.details]).toEqual([
            from,
            list,
            400,
            [{ field: 'pageToken', issue: 'the page token belongs to another query' }],
          ]);
      }
    }
    // Another tenant's list of the same shape refuses it too.
    const bobs = await get(`/v1/jobs?${range}&limit=1&pageToken=${tokens.jobs}`, bob.apiKey);
    expect([bobs.statusCode, bobs.json().error.details[0].field]).toEqual([400, 'pageToken']);
  });
});

describe('the dead-letter queue', () => {
  it('lists, redrives one (same id, new attempt group) and refuses a job that is not dead', async () => {
    const [dead, done] = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: null, scheduledFor: hour(3), state: 'dead', attempt: 3 },
      { tenantId: alice.id, taskId: null, scheduledFor: hour(3), state: 'succeeded' },
    ]);
    const dlq = (await get('/v1/dlq?limit=500', alice.apiKey)).json() as { jobs: { id: string }[] };
    expect(dlq.jobs.map((j) => j.id)).toContain(dead);
    expect(dlq.jobs.map((j) => j.id)).not.toContain(done);
    expect((await get('/v1/dlq', bob.apiKey)).json()).toEqual({ jobs: [] });
    expect((await post(`/v1/jobs/${dead}/retry`, bob.apiKey)).statusCode).toBe(404);
    const res = await post(`/v1/jobs/${dead}/retry`, alice.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: dead,
      state: 'pending',
      attempt: 3,
      attemptGroup: 2,
      maxAttempts: 6,
    });
    expect((await post(`/v1/jobs/${dead}/retry`, alice.apiKey)).statusCode).toBe(409);
    expect((await post(`/v1/jobs/${done}/retry`, alice.apiKey)).json().error.code).toBe('conflict');
  });

  it('redrives in bulk by ids and by task, only the caller’s dead jobs', async () => {
    const taskId = (await createTask(db.pool, cronTask(alice.id))).id;
    const mine = await insertJobs(
      db.pool,
      Array.from({ length: 4 }, (_, i) => ({
        tenantId: alice.id,
        taskId,
        scheduledFor: hour(i),
        state: 'dead' as const,
      })),
    );
    const [theirs] = await insertJobs(db.pool, [
      { tenantId: bob.id, taskId: null, scheduledFor: hour(1), state: 'dead' },
    ]);
    const byIds = await post('/v1/dlq/retry', alice.apiKey, { jobIds: [mine[0], theirs] });
    expect(byIds.json()).toEqual({ count: 1, jobIds: [mine[0]] });
    const byTask = await post('/v1/dlq/retry', alice.apiKey, { taskId });
    expect(byTask.json().count).toBe(3);
    expect((await post('/v1/dlq/retry', bob.apiKey, { taskId })).json()).toEqual({ count: 0, jobIds: [] });
    expect((await get(`/v1/jobs/${theirs}`, bob.apiKey)).json().state).toBe('dead');
    const none = await post('/v1/dlq/retry', alice.apiKey, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details[0].field).toBe('jobIds');
    const bad = await post('/v1/dlq/retry', alice.apiKey, { jobIds: ['nope'] });
    expect(bad.json().error.details[0].field).toBe('jobIds.0');
  });
});

describe('tenant isolation', () => {
  it('holds on every route: another tenant’s ids are not found and its jobs are never listed', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const [id] = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: task.id, scheduledFor: hour(2), state: 'dead' },
    ]);
    const range = `from=${hour(0).toISOString()}&to=${hour(23).toISOString()}`;
    expect((await get(`/v1/jobs/${id}`, bob.apiKey)).statusCode).toBe(404);
    expect((await get(`/v1/tasks/${task.id}/runs?${range}`, bob.apiKey)).statusCode).toBe(404);
    expect(
      (await get(`/v1/jobs?${range}&limit=500`, bob.apiKey)).json().jobs.map((j: { id: string }) => j.id),
    ).not.toContain(id);
    expect(
      (await get('/v1/dlq?limit=500', bob.apiKey)).json().jobs.map((j: { id: string }) => j.id),
    ).not.toContain(id);
    expect((await post(`/v1/jobs/${id}/retry`, bob.apiKey)).statusCode).toBe(404);
    expect((await post('/v1/dlq/retry', bob.apiKey, { jobIds: [id] })).json().count).toBe(0);
    expect((await get(`/v1/jobs/${id}`, alice.apiKey)).json().state).toBe('dead');
    for (const url of [`/v1/jobs/${id}`, `/v1/tasks/${task.id}/runs`, '/v1/jobs', '/v1/dlq']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every route from the zod schemas and serves a browsable page without a CDN', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/v1/dlq',
        '/v1/dlq/retry',
        '/v1/jobs',
        '/v1/jobs/{id}',
        '/v1/jobs/{id}/retry',
        '/v1/jobs/{id}/cancel',
        '/v1/jobs/{id}/heartbeat',
        '/v1/jobs/{id}/complete',
        '/v1/tasks/{id}/runs',
      ].sort(),
    );
    const params = doc.paths['/v1/jobs'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(['state', 'from', 'to', 'tag', 'limit', 'pageToken']);
    expect(doc.components.schemas.Job.properties.state.enum).toContain('dead');
    const complete = doc.paths['/v1/jobs/{id}/complete'].post;
    expect(complete.requestBody.content['application/json'].schema.required).toEqual(['attempt', 'outcome']);
    expect(Object.keys(complete.responses)).toContain('409');
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/swagger-ui/);
    expect(page.body).not.toMatch(/(src|href)="https?:\/\//);
    const init = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('/openapi.json');
    expect((await app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(
      200,
    );
  });
});
