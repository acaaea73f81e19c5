import { writeJobHistory } from '@dsched/cassandra/job-history';
import { allPartitions, DEFAULT_PARTITIONS, newId } from '@dsched/domain';
import { loadJobRecords } from '@dsched/mysql/jobs';
import { deleteArchivedJobs } from '@dsched/mysql/jobs/archive';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import {
  createTask,
  createTenantWithKey,
  cronTask,
  insertJobs,
  type JobRowSpec,
} from '@dsched/testkit/fixtures';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

// The tag filter (docs/tags.md) of job-api's lists: GET /v1/jobs, /v1/tasks/{id}/runs and /v1/dlq,
// over live jobs (job_tags in MySQL) and archived ones (tenant_jobs_by_tag in Cassandra) alike,
// merged and paged with no gap and no repeat while jobs move to history.

let db: TestDatabase;
let ks: TestKeyspace;
let app: FastifyInstance;
let alice: { id: string; apiKey: string };
let bob: { id: string; apiKey: string };

beforeAll(async () => {
  [db, ks] = await Promise.all([createTestDatabase(import.meta.url), createTestKeyspace(import.meta.url)]);
  app = buildTestApp(db, ks);
  alice = await createTenantWithKey(db.pool, 'alice');
  bob = await createTenantWithKey(db.pool, 'bob');
});
afterAll(async () => {
  await app.close();
  await db.close();
  await ks.close();
});

const get = (url: string, key = alice.apiKey) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

async function archive(ids: string[]): Promise<void> {
  const records = await loadJobRecords(db.pool, ids);
  await writeJobHistory(ks.client, records, { ttlSeconds: 3600, concurrency: 16 });
  await deleteArchivedJobs(
    db.pool,
    records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })),
    allPartitions(DEFAULT_PARTITIONS),
  );
}

/** Every id of a list, page by page, asserting no repeat. */
async function walk(path: string, key: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const res = await get(`${path}&limit=${limit}${token ? `&pageToken=${token}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    ids.push(...body[key].map((j: { id: string }) => j.id));
    token = body.nextPageToken;
  } while (token);
  expect(new Set(ids).size).toBe(ids.length);
  return ids;
}

const at = (m: number) => new Date(Date.UTC(2026, 10, 20, 10, m));
const RANGE = `from=${at(0).toISOString()}&to=${at(59).toISOString()}`;

describe('GET /v1/jobs?tag=', () => {
  it('pages the jobs holding every tag, live and archived, newest first, with state', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const spec = (
      m: number,
      tags: Record<string, string> | undefined,
      state: JobRowSpec['state'],
    ): JobRowSpec => ({
      tenantId: alice.id,
      taskId: task.id,
      scheduledFor: at(m),
      state,
      ...(tags ? { tags } : {}),
    });
    const billingProd = { team: 'billing', env: 'prod' };
    const specs: JobRowSpec[] = [];
    for (let m = 1; m <= 12; m++) {
      const tags = m % 3 === 0 ? { team: 'search' } : m % 2 === 0 ? billingProd : { team: 'billing' };
      specs.push(spec(m, m === 11 ? undefined : tags, m <= 6 ? 'succeeded' : m <= 9 ? 'dead' : 'pending'));
    }
    const ids = await insertJobs(db.pool, specs);
    const [bobs] = await insertJobs(db.pool, [
      { tenantId: bob.id, taskId: null, scheduledFor: at(5), state: 'pending', tags: { team: 'billing' } },
    ]);
    const expected = (pick: (m: number) => boolean) =>
      ids.flatMap((id, i) => (pick(i + 1) ? [id] : [])).reverse();
    const billing = (m: number) => m !== 11 && m % 3 !== 0;
    const prod = (m: number) => billing(m) && m % 2 === 0;

    // The finished ones of the first half move to history; the lists do not change.
    const before = await walk(`/v1/jobs?${RANGE}&tag=team:billing`, 'jobs', 2);
    expect(before).toEqual(expected(billing));
    expect(before).not.toContain(bobs);
    await archive(ids.slice(0, 6));
    expect(await count('SELECT COUNT(*) AS n FROM job_tags WHERE job_id IN (?)', [ids.slice(0, 6)])).toBe(0);
    expect(await walk(`/v1/jobs?${RANGE}&tag=team:billing`, 'jobs', 2)).toEqual(expected(billing));
    expect(await walk(`/v1/jobs?${RANGE}&tag=team:billing&tag=env:prod`, 'jobs', 1)).toEqual(expected(prod));
    expect(await walk(`/v1/jobs?${RANGE}&tag=env:prod&tag=team:billing`, 'jobs', 50)).toEqual(expected(prod));
    expect(await walk(`/v1/jobs?${RANGE}&tag=team:billing&state=succeeded`, 'jobs', 1)).toEqual(
      expected((m) => billing(m) && m <= 6),
    );
    expect(await walk(`/v1/jobs?${RANGE}&tag=team:billing&state=pending`, 'jobs', 1)).toEqual(
      expected((m) => billing(m) && m >= 10),
    );
    // A job archived keeps its tags in its document.
    const doc = (await get(`/v1/jobs/${ids[1]}`)).json();
    expect(doc.tags).toEqual(billingProd);
    // Jobs archived while a walk is under way are seen once.
    const first = (await get(`/v1/jobs?${RANGE}&tag=team:billing&limit=2`)).json();
    await archive(ids.slice(6, 9));
    let token = first.nextPageToken as string | undefined;
    const rest: string[] = [];
    while (token) {
      const page = (await get(`/v1/jobs?${RANGE}&tag=team:billing&limit=2&pageToken=${token}`)).json();
      rest.push(...page.jobs.map((j: { id: string }) => j.id));
      token = page.nextPageToken;
    }
    expect([...first.jobs.map((j: { id: string }) => j.id), ...rest]).toEqual(expected(billing));
  });

  it('runs of a task and the DLQ filter too', async () => {
    const task = await createTask(db.pool, cronTask(alice.id));
    const ids = await insertJobs(db.pool, [
      { tenantId: alice.id, taskId: task.id, scheduledFor: at(20), state: 'dead', tags: { team: 'ops' } },
      { tenantId: alice.id, taskId: task.id, scheduledFor: at(21), state: 'dead', tags: { team: 'web' } },
      {
        tenantId: alice.id,
        taskId: task.id,
        scheduledFor: at(22),
        state: 'succeeded',
        tags: { team: 'ops' },
      },
    ]);
    await archive([ids[2]!]);
    expect(await walk(`/v1/tasks/${task.id}/runs?${RANGE}&tag=team:ops`, 'runs', 1)).toEqual([
      ids[2],
      ids[0],
    ]);
    expect(await walk(`/v1/dlq?tag=team:ops`, 'jobs', 1)).toEqual([ids[0]]);
    expect(await walk(`/v1/dlq?tag=team:web&tag=env:x`, 'jobs', 1)).toEqual([]);
  });

  it('a bad filter is a 400 naming `tag`', async () => {
    for (const q of ['tag=team', 'tag=a:1&tag=a:2', `tag=k:${'v'.repeat(129)}`]) {
      const res = await get(`/v1/jobs?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].field).toBe('tag');
    }
    expect((await get('/v1/dlq?tag=x')).json().error.details[0].field).toBe('tag');
    expect((await get(`/v1/tasks/${newId()}/runs?tag=a:b`)).statusCode).toBe(404);
  });
});

async function count(sql: string, ids: unknown[]): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(sql, [
    (ids[0] as string[]).map((id) => Buffer.from(id.replaceAll('-', ''), 'hex')),
  ]);
  return Number(rows[0]!.n);
}
