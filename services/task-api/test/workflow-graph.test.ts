import { afterAll, beforeAll, expect, it } from 'vitest';
import { ARCHIVED_GRAPH_MAX_NODES, GRAPH_MAX_NODES } from '../src/core/workflows.ts';
import { tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// GET /v1/workflows/{id}/graph: a small workflow whole, for drawing; a large one refused.

let t: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url);
});
afterAll(async () => {
  await t.close();
});

const node = (id: string, dependsOn: string[] = []) => ({
  id,
  target: { url: 'https://example.test/hook' },
  dependsOn,
});

it('answers every node and dependency of a small workflow, and only to its tenant', async () => {
  const acme = await tenantClient(t.app);
  const other = await tenantClient(t.app);
  const res = await acme.call('POST', '/v1/workflows', {
    name: 'diamond',
    nodes: [node('a'), node('b', ['a']), node('c', ['a']), node('d', ['b', 'c'])],
  });
  expect(res.statusCode).toBe(201);
  const { id } = res.json() as { id: string };

  const graph = await acme.call('GET', `/v1/workflows/${id}/graph`);
  expect(graph.statusCode).toBe(200);
  const body = graph.json() as {
    workflow: { id: string };
    nodes: { id: string; state: string }[];
    edges: string[][];
  };
  expect(body.workflow.id).toBe(id);
  expect(body.nodes.map((n) => [n.id, n.state])).toEqual([
    ['a', 'pending'],
    ['b', 'waiting'],
    ['c', 'waiting'],
    ['d', 'waiting'],
  ]);
  expect(body.edges).toEqual([
    ['a', 'b'],
    ['a', 'c'],
    ['b', 'd'],
    ['c', 'd'],
  ]);
  expect((await other.call('GET', `/v1/workflows/${id}/graph`)).statusCode).toBe(404);
});

it(`answers a live run larger than history keeps whole (${ARCHIVED_GRAPH_MAX_NODES + 100} nodes)`, async () => {
  const acme = await tenantClient(t.app);
  const count = ARCHIVED_GRAPH_MAX_NODES + 100;
  const nodes = Array.from({ length: count }, (_, i) => node(`n${i}`, i ? [`n${i - 1}`] : []));
  const res = await acme.call('POST', '/v1/workflows', { name: 'long', nodes });
  expect(res.statusCode).toBe(201);
  const graph = await acme.call('GET', `/v1/workflows/${(res.json() as { id: string }).id}/graph`);
  expect(graph.statusCode).toBe(200);
  expect(graph.json().nodes).toHaveLength(count);
  expect(graph.json().edges).toHaveLength(count - 1);
});

it(`refuses a workflow of more than ${GRAPH_MAX_NODES} nodes with 412, pointing at /nodes`, async () => {
  const acme = await tenantClient(t.app);
  const nodes = Array.from({ length: GRAPH_MAX_NODES + 1 }, (_, i) => node(`n${i}`, i ? [`n${i - 1}`] : []));
  const res = await acme.call('POST', '/v1/workflows', { name: 'long', nodes });
  expect(res.statusCode).toBe(201);
  const graph = await acme.call('GET', `/v1/workflows/${(res.json() as { id: string }).id}/graph`);
  expect(graph.statusCode).toBe(412);
  expect(graph.json().error.code).toBe('failed_precondition');
  expect(graph.json().error.message).toMatch(/\/nodes/);
});
