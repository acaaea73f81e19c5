import { writeWorkflowRun } from '@dsched/cassandra/workflow-history';
import type { WorkflowRecord } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, schedulerPass, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Tags (docs/tags.md) through task-api's routes on real MariaDB and Cassandra: on tasks and
// workflows, copied to their jobs, and the tag filter of GET /v1/tasks and GET /v1/workflows (live
// and archived runs).

let t: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url);
});
afterAll(async () => {
  await t.close();
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [rows] = await t.db.pool.query<RowDataPacket[]>(sql, params);
  return Number(rows[0]!.n);
}

type Client = Awaited<ReturnType<typeof tenantClient>>;

/** A JSON column as the driver hands it: text on some servers, parsed on others. */
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

async function listAll(c: Client, path: string, key: string, limit = 1): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await c.call('GET', `${path}${sep}limit=${limit}${token ? `&pageToken=${token}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    ids.push(...body[key].map((x: { id: string }) => x.id));
    token = body.nextPageToken;
  } while (token);
  return ids;
}

describe('tasks', () => {
  it('carry tags, shown in key order; a bad tag is a 400 naming it and stores nothing', async () => {
    const c = await tenantClient(t.app);
    const res = await c.call(
      'POST',
      '/v1/tasks',
      cronBody('0 9 * * *', { tags: { team: 'billing', env: 'prod' } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tags).toEqual({ env: 'prod', team: 'billing' });
    expect(Object.keys(res.json().tags)).toEqual(['env', 'team']);
    const before = await count('SELECT COUNT(*) AS n FROM tasks');
    for (const [tags, field] of [
      [{ 'bad key': 'x' }, 'tags.bad key'],
      [{ team: '' }, 'tags.team'],
      [{ team: 'x'.repeat(129) }, 'tags.team'],
      [Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])), 'tags'],
    ] as const) {
      const bad = await c.call('POST', '/v1/tasks', cronBody('0 9 * * *', { tags }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await count('SELECT COUNT(*) AS n FROM tasks')).toBe(before);
  });

  it('GET /v1/tasks?tag= pages the tasks holding every tag, through their index rows', async () => {
    const c = await tenantClient(t.app);
    const other = await tenantClient(t.app);
    const make = async (tags?: Record<string, string>) =>
      (await c.call('POST', '/v1/tasks', cronBody('0 9 * * *', tags ? { tags } : {}))).json().id as string;
    const billingProd = [
      await make({ team: 'billing', env: 'prod' }),
      await make({ team: 'billing', env: 'prod' }),
    ];
    const billingDev = await make({ team: 'billing', env: 'dev' });
    await make({ team: 'search' });
    await make();
    await other.call('POST', '/v1/tasks', cronBody('0 9 * * *', { tags: { team: 'billing' } }));

    expect(await listAll(c, '/v1/tasks?tag=team:billing', 'tasks')).toEqual([...billingProd, billingDev]);
    expect(await listAll(c, '/v1/tasks?tag=team:billing&tag=env:prod', 'tasks')).toEqual(billingProd);
    expect(await listAll(c, '/v1/tasks?tag=env:prod&tag=team:billing', 'tasks', 50)).toEqual(billingProd);
    expect(await listAll(c, '/v1/tasks?tag=team:nobody', 'tasks')).toEqual([]);

    // A patch replaces the tags (and their index rows); null clears them; a deleted task leaves none.
    const patched = await c.call('PATCH', `/v1/tasks/${billingProd[0]}`, { tags: { team: 'search' } });
    expect(patched.json().tags).toEqual({ team: 'search' });
    expect(await listAll(c, '/v1/tasks?tag=team:billing&tag=env:prod', 'tasks')).toEqual([billingProd[1]]);
    await c.call('PATCH', `/v1/tasks/${billingDev}`, { tags: null });
    expect((await c.call('GET', `/v1/tasks/${billingDev}`)).json().tags).toBeUndefined();
    await c.call('DELETE', `/v1/tasks/${billingProd[1]}`);
    expect(await listAll(c, '/v1/tasks?tag=team:billing', 'tasks')).toEqual([]);
    expect(
      await count('SELECT COUNT(*) AS n FROM task_tags WHERE task_id IN (?)', [
        [billingDev, billingProd[1]!].map(idToBin),
      ]),
    ).toBe(0);
  });

  it('a filter that could never match, or over the limits, is a 400 naming `tag`', async () => {
    const c = await tenantClient(t.app);
    for (const q of ['tag=nocolon', 'tag=a:1&tag=a:2', 'tag=a:1&tag=b:1&tag=c:1&tag=d:1&tag=e:1&tag=f:1']) {
      const res = await c.call('GET', `/v1/tasks?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details[0].field).toBe('tag');
    }
  });

  it('their jobs copy the tags when made, with index rows; a tag edit replaces the unstarted jobs', async () => {
    const c = await tenantClient(t.app);
    const task = (
      await c.call('POST', '/v1/tasks', cronBody('* * * * *', { tags: { team: 'billing' } }))
    ).json() as { id: string };
    await schedulerPass(t.db.pool, 120_000);
    const trigger = (await c.call('POST', `/v1/tasks/${task.id}/trigger`)).json() as { jobId: string };
    const [jobs] = await t.db.pool.query<RowDataPacket[]>(
      "SELECT HEX(id) AS id, tags FROM jobs WHERE task_id = ? AND state = 'pending'",
      [idToBin(task.id)],
    );
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const j of jobs) expect(json(j.tags)).toEqual({ team: 'billing' });
    const indexed = `SELECT COUNT(*) AS n FROM job_tags jt JOIN jobs j ON j.id = jt.job_id
                      WHERE j.task_id = ? AND j.state = 'pending' AND jt.tag = ?`;
    expect(await count(indexed, [idToBin(task.id), 'team:billing'])).toBe(jobs.length);
    expect(jobs.map((j) => j.id.toLowerCase())).toContain(trigger.jobId.replaceAll('-', ''));

    await c.call('PATCH', `/v1/tasks/${task.id}`, { tags: { team: 'search' } });
    const [after] = await t.db.pool.query<RowDataPacket[]>(
      "SELECT tags FROM jobs WHERE task_id = ? AND state = 'pending' AND kind = 'scheduled'",
      [idToBin(task.id)],
    );
    expect(after.length).toBeGreaterThan(0);
    for (const j of after) expect(json(j.tags)).toEqual({ team: 'search' });
    expect(await count(indexed, [idToBin(task.id), 'team:search'])).toBeGreaterThan(0);
  });
});

const node = (id: string, dependsOn: string[] = []) => ({
  id,
  target: { url: 'https://example.test/h' },
  dependsOn,
});

describe('workflows', () => {
  it('carry tags to their node jobs; GET /v1/workflows lists runs by state, name, tags and time, live and archived', async () => {
    const c = await tenantClient(t.app);
    const submit = async (name: string, tags?: Record<string, string>) => {
      const res = await c.call('POST', '/v1/workflows', {
        name,
        nodes: [node('a'), node('b', ['a'])],
        ...(tags ? { tags } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; tags?: Record<string, string> };
    };
    const etl1 = await submit('etl', { team: 'data', env: 'prod' });
    const etl2 = await submit('etl', { team: 'data' });
    const report = await submit('report', { team: 'finance' });
    const plain = await submit('plain');
    expect(etl1.tags).toEqual({ env: 'prod', team: 'data' });

    // The root node's job carries the run's tags, with an index row per tag.
    const [roots] = await t.db.pool.query<RowDataPacket[]>(
      'SELECT tags, (SELECT COUNT(*) FROM job_tags jt WHERE jt.job_id = j.id) AS n FROM jobs j WHERE workflow_id = ?',
      [idToBin(etl1.id)],
    );
    expect(roots.map((r) => [json(r.tags), Number(r.n)])).toEqual([[{ env: 'prod', team: 'data' }, 2]]);

    const newestFirst = [plain.id, report.id, etl2.id, etl1.id];
    expect(await listAll(c, '/v1/workflows', 'workflows')).toEqual(newestFirst);
    expect(await listAll(c, '/v1/workflows?tag=team:data', 'workflows')).toEqual([etl2.id, etl1.id]);
    expect(await listAll(c, '/v1/workflows?tag=team:data&tag=env:prod', 'workflows')).toEqual([etl1.id]);
    expect(await listAll(c, '/v1/workflows?name=etl', 'workflows')).toEqual([etl2.id, etl1.id]);
    expect(await listAll(c, '/v1/workflows?state=running&name=report', 'workflows')).toEqual([report.id]);
    expect(await listAll(c, '/v1/workflows?state=succeeded', 'workflows')).toEqual([]);
    expect(
      await listAll(c, '/v1/workflows?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z', 'workflows'),
    ).toEqual([]);

    // etl1 moves to history (as the archiver leaves it: copied, then marked); the lists read it there.
    const record = (await c.call('GET', `/v1/workflows/${etl1.id}`)).json();
    const archived: WorkflowRecord = {
      ...record,
      state: 'succeeded',
      maxParallel: null,
      deadlineAt: null,
      metadata: null,
      finishedAt: new Date(),
      createdAt: new Date(record.createdAt),
      updatedAt: new Date(record.updatedAt),
    };
    await writeWorkflowRun(t.ks.client, { tenantId: c.id, version: 1, record: archived } as never, {
      ttlSeconds: 3600,
    });
    await t.db.pool.query("UPDATE workflows SET state = 'succeeded', archived_at = NOW(3) WHERE id = ?", [
      idToBin(etl1.id),
    ]);
    expect(await listAll(c, '/v1/workflows', 'workflows')).toEqual(newestFirst);
    expect(await listAll(c, '/v1/workflows?tag=team:data&tag=env:prod', 'workflows', 5)).toEqual([etl1.id]);
    expect(await listAll(c, '/v1/workflows?state=succeeded', 'workflows')).toEqual([etl1.id]);
    expect(await listAll(c, '/v1/workflows?state=running&tag=team:data', 'workflows')).toEqual([etl2.id]);

    const bad = await c.call('GET', '/v1/workflows?tag=team');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('tag');
  });

  it('a page token is bound to its filters', async () => {
    const c = await tenantClient(t.app);
    for (let i = 0; i < 2; i++)
      await c.call('POST', '/v1/workflows', { name: 'w', nodes: [node('a')], tags: { k: 'v' } });
    const first = (await c.call('GET', '/v1/workflows?tag=k:v&limit=1')).json();
    expect(first.nextPageToken).toBeDefined();
    const replayed = await c.call('GET', `/v1/workflows?limit=1&pageToken=${first.nextPageToken}`);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.details[0].field).toBe('pageToken');
  });
});
