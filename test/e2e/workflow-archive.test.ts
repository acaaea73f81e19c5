import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually } from '@dsched/testkit/services';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useWorkflowFleet } from './workflow-kit.ts';

// A finished workflow moves to Cassandra history (decision D29) and reads back through task-api
// exactly as it read from MySQL: its summary, every page of its nodes (by state too) with their
// outputs, its graph and a fan-in's parents. The archiver is first killed (SIGKILL, by the
// test-only ARCHIVER_FAILPOINT) between the run's history copy and its MySQL mark and delete:
// nothing is lost, and after a restart every node is in history once and the run is gone from
// MySQL. Services as processes, a loopback target, real MariaDB and Cassandra.

const fleet = useWorkflowFleet(import.meta.url, {
  adminToken: 'workflow-archive-admin-token-0123',
  settings: {
    ARCHIVER_INTERVAL_MS: '100',
    // Failed runs (and dead jobs) move at once here; by default they wait DLQ_RETENTION_S.
    DLQ_RETENTION_S: '0',
  },
});
const { db, ks, api, start } = fleet;
let target: ScriptedTarget;

beforeAll(async () => {
  // Each node answers a JSON output naming itself; `zbad` dead-letters at once (a 400).
  target = await startScriptedTarget((call) =>
    call.path.endsWith('/zbad')
      ? { status: 400, body: '{"why":"refused"}' }
      : { status: 200, body: JSON.stringify({ node: call.path.split('/').at(-1), attempt: call.attempt }) },
  );
  await Promise.all([start('task-api'), start('reconciler'), start('executor')]);
  await fleet.createTenant('archive');
}, 180_000);
afterAll(async () => {
  await target?.close();
});

/** Every page of a list, concatenated (pages of `limit`), and how many pages it took. */
async function allPages(path: string, key: 'nodes' | 'parents', limit: number) {
  const items: unknown[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await api('GET', `${path}${sep}limit=${limit}${token ? `&pageToken=${token}` : ''}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    items.push(...res.json[key]);
    token = res.json.nextPageToken;
    pages += 1;
  } while (token);
  return { items, pages };
}

/** What the API shows of a run: every read a tenant can make of it. */
async function everything(id: string) {
  return {
    summary: (await api('GET', `/v1/workflows/${id}`)).json,
    nodes: await allPages(`/v1/workflows/${id}/nodes`, 'nodes', 37),
    succeeded: await allPages(`/v1/workflows/${id}/nodes?state=succeeded`, 'nodes', 45),
    dead: await allPages(`/v1/workflows/${id}/nodes?state=dead`, 'nodes', 45),
    upstreamFailed: await allPages(`/v1/workflows/${id}/nodes?state=upstream_failed`, 'nodes', 45),
    graph: (await api('GET', `/v1/workflows/${id}/graph`)).json,
    parents: await allPages(`/v1/workflows/${id}/nodes/sink/parents`, 'parents', 33),
    rootParents: await allPages(`/v1/workflows/${id}/nodes/root/parents`, 'parents', 10),
  };
}

async function mysqlRows(id: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [table, column] of [
    ['workflows', 'id'],
    ['workflow_nodes', 'workflow_id'],
    ['workflow_edges', 'workflow_id'],
    ['workflow_node_outputs', 'workflow_id'],
  ] as const) {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`,
      [idToBin(id)],
    );
    out[table] = Number(rows[0]!.n);
  }
  return out;
}

async function historyCount(table: string, id: string): Promise<number> {
  const rs = await ks.client.execute(`SELECT workflow_id FROM ${table}`, [], { fetchSize: 100_000 });
  return rs.rows.filter((r) => r.get('workflow_id').toString() === id).length;
}

it('moves a finished run to history, survives a kill between copy and delete, and reads back identically', async () => {
  // 253 nodes (three history buckets): root -> 249 middles -> sink (a fan-in), plus `zbad`, which
  // dies, and `zbad-after`, which is upstream_failed; the run fails. The z names put the only dead
  // and upstream_failed nodes in the last bucket, while each is bucket 0 of its state.
  const middles = Array.from({ length: 249 }, (_, i) => `m${String(i).padStart(3, '0')}`);
  const nodes = [
    { id: 'root' },
    ...middles.map((id) => ({ id, dependsOn: ['root'] })),
    { id: 'sink', dependsOn: middles, inputs: 'parents' },
    { id: 'zbad', dependsOn: ['root'] },
    { id: 'zbad-after', dependsOn: ['zbad'] },
  ];
  const submit = await api('POST', '/v1/workflows', {
    name: 'archived',
    metadata: { team: 'etl' },
    nodes: nodes.map((n) => ({
      ...n,
      target: { url: `${target.url}/a/${n.id}` },
      retry: { maxAttempts: 2, initialBackoffMs: 50, maxBackoffMs: 100 },
    })),
  });
  expect(submit.status).toBe(201);
  const { id } = submit.json as { id: string };
  await eventually(
    async () => ((await api('GET', `/v1/workflows/${id}`)).json.state === 'failed' ? true : undefined),
    90_000,
    'run failed',
  );
  const live = await everything(id);
  expect(live.summary.nodes).toMatchObject({ succeeded: 251, dead: 1, upstream_failed: 1 });
  expect(live.nodes.items).toHaveLength(253);
  expect(live.nodes.pages).toBe(7);
  expect(live.parents.items).toHaveLength(249);
  expect(live.rootParents.items).toEqual([]);
  expect(
    (live.nodes.items as { id: string; output?: unknown }[]).find((n) => n.id === 'm007')?.output,
  ).toEqual({
    node: 'm007',
    attempt: 1,
  });
  expect(live.graph.edges).toHaveLength(249 * 2 + 2);

  // Killed right after the copy: the run is in both stores, readers still get MySQL's.
  const doomed = await start('archiver', { ARCHIVER_FAILPOINT: 'after-workflow-history-write' }, false);
  expect(await doomed.exited).toBe('SIGKILL');
  expect(doomed.output()).toMatch(/ARCHIVER_FAILPOINT=after-workflow-history-write/);
  expect(await mysqlRows(id)).toEqual({
    workflows: 1,
    workflow_nodes: 253,
    workflow_edges: 500,
    workflow_node_outputs: 252,
  });
  const [runRow] = (
    await ks.client.execute('SELECT id FROM workflow_runs WHERE id = ?', [id], { prepare: true })
  ).rows;
  expect(runRow).toBeDefined();
  expect(await everything(id)).toEqual(live);

  const archiver = await start('archiver');
  await eventually(
    async () => (Object.values(await mysqlRows(id)).every((n) => n === 0) ? true : undefined),
    60_000,
    'run deleted from MySQL',
  );
  // Each node once in history, whatever the crash repeated.
  expect(await historyCount('workflow_run_nodes', id)).toBe(253);
  expect(await historyCount('workflow_run_nodes_by_state', id)).toBe(253);
  expect(await historyCount('workflow_run_parents', id)).toBe(253 + 500);

  const archived = await everything(id);
  expect(archived).toEqual(live);

  // Final: nothing of it runs again.
  const retry = await api('POST', `/v1/workflows/${id}/nodes/zbad/retry`);
  expect(retry.status).toBe(409);
  expect(retry.json.error).toMatchObject({ code: 'conflict', details: [{ field: 'id', issue: 'archived' }] });
  // A signal to a run in history is 409 like one to any ended run (not 404: the run exists).
  const signal = await api('POST', `/v1/workflows/${id}/nodes/zbad/signal`);
  expect(signal.status).toBe(409);
  expect(signal.json.error).toMatchObject({
    code: 'conflict',
    details: [{ field: 'id', issue: 'archived' }],
  });
  expect((await api('POST', `/v1/workflows/${id}/cancel`)).json).toEqual(live.summary);
  expect((await api('POST', `/v1/workflows/${id}/pause`)).status).toBe(409);
  expect((await api('GET', `/v1/workflows/${id}/nodes/nope/parents`)).status).toBe(404);

  const metrics = await (await fetch(`${archiver.url}/metrics`)).text();
  expect(metrics).toMatch(/dsched_archiver_workflows_archived_total\{[^}]*\} 1/);
}, 240_000);
