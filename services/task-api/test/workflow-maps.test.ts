import type { RowDataPacket } from '@dsched/mysql/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Map nodes through task-api's routes, on real MariaDB: what a submission may say (400 naming the
// field, nothing stored) and how a map node reads back before it runs.

let t: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url);
});
afterAll(async () => {
  await t.close();
});

const target = { url: 'https://example.test/item' };
const call = (id: string, dependsOn: string[] = []) => ({ id, target, dependsOn });

async function storedRows(): Promise<number> {
  const [rows] = await t.db.pool.query<RowDataPacket[]>(
    `SELECT (SELECT COUNT(*) FROM workflows) + (SELECT COUNT(*) FROM workflow_nodes)
            + (SELECT COUNT(*) FROM jobs WHERE workflow_id IS NOT NULL) AS n`,
  );
  return Number(rows[0]!.n);
}

describe('submitting map nodes', () => {
  it('refuses a bad map node with 400 naming the field; nothing is stored', async () => {
    const c = await tenantClient(t.app);
    const before = await storedRows();
    const map = (m: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      id: 'm',
      kind: 'map',
      dependsOn: ['a'],
      map: { over: 'a', target, ...m },
      ...extra,
    });
    const cases: [unknown[], string][] = [
      [[call('a'), call('b'), map({ over: 'b' })], 'nodes.2.map.over'],
      [[call('a'), map({ over: 'nowhere' })], 'nodes.1.map.over'],
      [[call('a'), map({ maxItems: 0 })], 'nodes.1.map.maxItems'],
      [[call('a'), map({ maxItems: 100_001 })], 'nodes.1.map.maxItems'],
      [[call('a'), map({ maxItems: 99_999 })], 'nodes.1.map.maxItems'],
      [[call('a'), map({ target: undefined })], 'nodes.1.map.target'],
      [[call('a'), map({ target: { url: 'ftp://x.test' } })], 'nodes.1.map.target.url'],
      [[call('a'), map({ extra: 1 })], 'nodes.1.map.extra'],
      [[call('a'), { id: 'm', kind: 'map', dependsOn: ['a'] }], 'nodes.1.map'],
      [[call('a'), map({}, { target })], 'nodes.1.target'],
      [[call('a'), map({}), call('m~1')], 'nodes.2.id'],
      [[call('a'), map({}, { id: 'm'.repeat(94) })], 'nodes.1.id'],
    ];
    for (const [nodes, field] of cases) {
      const res = await c.call('POST', '/v1/workflows', { name: 'bad', nodes });
      const fields =
        res.statusCode === 400 ? res.json().error.details.map((d: { field: string }) => d.field) : [];
      expect([JSON.stringify(nodes), res.statusCode, fields]).toEqual([JSON.stringify(nodes), 400, [field]]);
    }
    expect(await storedRows()).toBe(before);
  });

  it('stores a map node and shows its kind and what it maps over', async () => {
    const c = await tenantClient(t.app);
    const res = await c.call('POST', '/v1/workflows', {
      name: 'map',
      nodes: [
        call('a'),
        { id: 'm', kind: 'map', dependsOn: ['a'], map: { over: 'a', target, maxItems: 50 } },
      ],
    });
    expect(res.statusCode).toBe(201);
    const nodes = (await c.call('GET', `/v1/workflows/${res.json().id}/nodes`)).json().nodes;
    expect(nodes.find((n: { id: string }) => n.id === 'm')).toMatchObject({
      kind: 'map',
      state: 'waiting',
      map: { over: 'a', made: 0 },
    });
  });
});
