import type { RowDataPacket } from '@dsched/mysql/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// POST /v1/workflows and its reads and operations through the routes, on real MariaDB.

let t: Awaited<ReturnType<typeof buildTestApp>>;
const MAX_BODY = 2 * 1024 * 1024;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url, { workflowMaxBodyBytes: MAX_BODY });
});
afterAll(async () => {
  await t.close();
});

const node = (id: string, dependsOn: string[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  target: { url: 'https://example.test/hook' },
  dependsOn,
  ...extra,
});

async function stored(): Promise<{ workflows: number; nodes: number; edges: number; jobs: number }> {
  const [rows] = await t.db.pool.query<RowDataPacket[]>(
    `SELECT (SELECT COUNT(*) FROM workflows) AS workflows, (SELECT COUNT(*) FROM workflow_nodes) AS nodes,
            (SELECT COUNT(*) FROM workflow_edges) AS edges,
            (SELECT COUNT(*) FROM jobs WHERE workflow_id IS NOT NULL) AS jobs`,
  );
  const r = rows[0]!;
  return {
    workflows: Number(r.workflows),
    nodes: Number(r.nodes),
    edges: Number(r.edges),
    jobs: Number(r.jobs),
  };
}

describe('POST /v1/workflows', () => {
  it('stores a run and answers it running with its node counts; its roots have jobs', async () => {
    const c = await tenantClient(t.app);
    const res = await c.call('POST', '/v1/workflows', {
      name: 'etl',
      nodes: [node('extract'), node('transform', ['extract']), node('load', ['transform']), node('audit')],
      failurePolicy: 'fail_fast',
      maxParallel: 10,
      deadlineS: 3600,
      metadata: { team: 'data' },
    });
    expect(res.statusCode).toBe(201);
    const wf = res.json();
    expect(wf).toMatchObject({
      name: 'etl',
      state: 'running',
      failurePolicy: 'fail_fast',
      maxParallel: 10,
      nodeCount: 4,
      edgeCount: 2,
      metadata: { team: 'data' },
    });
    expect(wf.nodes).toMatchObject({ pending: 2, waiting: 2, running: 0 });
    expect(wf.deadlineAt).toBeDefined();

    const got = await c.call('GET', `/v1/workflows/${wf.id}`);
    expect(got.json()).toEqual(wf);

    const page1 = await c.call('GET', `/v1/workflows/${wf.id}/nodes?limit=3`);
    expect(page1.json().nodes.map((n: { id: string }) => n.id)).toEqual(['audit', 'extract', 'load']);
    expect(page1.json().nodes[0]).toMatchObject({ state: 'pending', attempt: 0, trigger: 'all_success' });
    expect(page1.json().nodes[0].jobId).toMatch(/^[0-9a-f-]{36}$/);
    const page2 = await c.call(
      'GET',
      `/v1/workflows/${wf.id}/nodes?limit=3&pageToken=${page1.json().nextPageToken}`,
    );
    expect(page2.json()).toEqual({ nodes: [expect.objectContaining({ id: 'transform', state: 'waiting' })] });
    const waiting = await c.call('GET', `/v1/workflows/${wf.id}/nodes?state=waiting`);
    expect(waiting.json().nodes.map((n: { id: string }) => n.id)).toEqual(['load', 'transform']);
    expect(waiting.json().nodes[0].jobId).toBeUndefined();
    const wrongToken = await c.call(
      'GET',
      `/v1/workflows/${wf.id}/nodes?state=pending&pageToken=${page1.json().nextPageToken}`,
    );
    expect(wrongToken.statusCode).toBe(400);
    expect(wrongToken.json().error.details).toEqual([
      { field: 'pageToken', issue: 'the page token belongs to another query' },
    ]);
  });

  it('refuses a page token on any list but the one that issued it, naming pageToken', async () => {
    const c = await tenantClient(t.app);
    const other = await tenantClient(t.app);
    const submit = async () =>
      (
        await c.call('POST', '/v1/workflows', {
          name: 'paged',
          nodes: [node('a'), node('b'), node('c', ['a', 'b'])],
        })
      ).json() as { id: string };
    const [wf, wf2] = [await submit(), await submit()];
    for (const name of ['x', 'y']) await c.call('POST', '/v1/tasks', cronBody('0 9 * * *', { name }));
    const nodesToken = (await c.call('GET', `/v1/workflows/${wf.id}/nodes?limit=1`)).json().nextPageToken;
    const parentsToken = (await c.call('GET', `/v1/workflows/${wf.id}/nodes/c/parents?limit=1`)).json()
      .nextPageToken;
    const tasksToken = (await c.call('GET', '/v1/tasks?limit=1')).json().nextPageToken;
    expect([nodesToken, parentsToken, tasksToken].every((x) => typeof x === 'string')).toBe(true);
    // Each token works on its own list…
    for (const [url, token] of [
      [`/v1/workflows/${wf.id}/nodes?limit=1`, nodesToken],
      [`/v1/workflows/${wf.id}/nodes/c/parents?limit=1`, parentsToken],
      ['/v1/tasks?limit=1', tasksToken],
    ])
      expect((await c.call('GET', `${url}&pageToken=${token}`)).statusCode).toBe(200);
    // …and on no other: another list, another run, another tenant.
    const refused: [string, string, typeof c][] = [
      ['/v1/tasks', nodesToken, c],
      [`/v1/workflows/${wf.id}/nodes`, tasksToken, c],
      [`/v1/workflows/${wf.id}/nodes`, parentsToken, c],
      [`/v1/workflows/${wf.id}/nodes/c/parents`, nodesToken, c],
      [`/v1/workflows/${wf2.id}/nodes`, nodesToken, c],
      ['/v1/tasks', tasksToken, other],
      ['/v1/tasks?state=paused', tasksToken, c],
    ];
    for (const [url, token, client] of refused) {
      const res = await client.call('GET', `${url}${url.includes('?') ? '&' : '?'}pageToken=${token}`);
      expect([url, res.statusCode, res.json().error.details]).toEqual([
        url,
        400,
        [{ field: 'pageToken', issue: 'the page token belongs to another query' }],
      ]);
    }
  });

  it('refuses a cycle naming its nodes, a dangling dependency and a duplicate id; nothing is stored', async () => {
    const c = await tenantClient(t.app);
    const before = await stored();
    const cyclic = await c.call('POST', '/v1/workflows', {
      name: 'cyclic',
      nodes: [node('a'), node('b', ['a', 'd']), node('c', ['b']), node('d', ['c'])],
    });
    expect(cyclic.statusCode).toBe(400);
    const err = cyclic.json().error;
    expect(err.code).toBe('invalid_argument');
    expect(err.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'nodes.1.dependsOn',
      'nodes.2.dependsOn',
      'nodes.3.dependsOn',
    ]);
    expect(err.details[0].issue).toMatch(/dependency cycle: .*b.*c.*d|dependency cycle: .*c.*d.*b|.*d.*b.*c/);

    const dangling = await c.call('POST', '/v1/workflows', { name: 'x', nodes: [node('a', ['ghost'])] });
    expect(dangling.statusCode).toBe(400);
    expect(dangling.json().error.details[0]).toEqual({
      field: 'nodes.0.dependsOn.0',
      issue: 'node "a" depends on unknown node "ghost"',
    });
    const dup = await c.call('POST', '/v1/workflows', { name: 'x', nodes: [node('a'), node('a')] });
    expect(dup.json().error.details[0].field).toBe('nodes.1.id');
    const badTarget = await c.call('POST', '/v1/workflows', {
      name: 'x',
      nodes: [node('a'), { id: 'b', target: { url: 'ftp://x' } }],
    });
    expect(badTarget.json().error.details[0].field).toBe('nodes.1.target.url');
    const badFlow = await c.call('POST', '/v1/workflows', {
      name: 'x',
      nodes: [node('a'), { ...node('b'), flowControl: { key: 'endpoint' } }],
    });
    expect(badFlow.statusCode).toBe(400);
    expect(badFlow.json().error.details[0].field).toBe('nodes.1.flowControl.parallelism');
    expect(await stored()).toEqual(before);
  });

  it('refuses a body over WORKFLOW_MAX_BODY_BYTES with 413 before reading it; nothing is stored', async () => {
    const c = await tenantClient(t.app);
    const before = await stored();
    const big = await c.call('POST', '/v1/workflows', {
      name: 'big',
      nodes: Array.from({ length: 40_000 }, (_, i) => node(`n${i}`)),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('resource_exhausted');
    expect(await stored()).toEqual(before);
  });

  it('counts a running workflow against maxTasks', async () => {
    const c = await tenantClient(t.app, { maxTasks: 1 });
    expect((await c.call('POST', '/v1/workflows', { name: 'one', nodes: [node('a')] })).statusCode).toBe(201);
    const second = await c.call('POST', '/v1/workflows', { name: 'two', nodes: [node('a')] });
    expect(second.statusCode).toBe(429);
    expect(second.json().error.details[0].field).toBe('maxTasks');
  });
});

describe('run operations', () => {
  it('cancel ends the run and its nodes; pause and resume then answer 409; another tenant sees 404', async () => {
    const c = await tenantClient(t.app);
    const wf = (
      await c.call('POST', '/v1/workflows', { name: 'w', nodes: [node('a'), node('b', ['a'])] })
    ).json();
    expect((await c.call('POST', `/v1/workflows/${wf.id}/pause`)).json().paused).toBe(true);
    expect((await c.call('POST', `/v1/workflows/${wf.id}/resume`)).json().paused).toBe(false);
    const other = await tenantClient(t.app);
    expect((await other.call('GET', `/v1/workflows/${wf.id}`)).statusCode).toBe(404);
    expect((await other.call('POST', `/v1/workflows/${wf.id}/cancel`)).statusCode).toBe(404);
    const cancelled = await c.call('POST', `/v1/workflows/${wf.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', nodes: { cancelled: 2 } });
    expect((await c.call('POST', `/v1/workflows/${wf.id}/cancel`)).json().state).toBe('cancelled');
    expect((await c.call('POST', `/v1/workflows/${wf.id}/pause`)).statusCode).toBe(409);
    const retry = await c.call('POST', `/v1/workflows/${wf.id}/nodes/nope/retry`);
    expect(retry.statusCode).toBe(404);
  });

  it('documents every workflow route in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of [
      '/v1/workflows',
      '/v1/workflows/{id}',
      '/v1/workflows/{id}/nodes',
      '/v1/workflows/{id}/cancel',
      '/v1/workflows/{id}/pause',
      '/v1/workflows/{id}/resume',
      '/v1/workflows/{id}/nodes/{nodeId}/retry',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
