import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually } from '@dsched/testkit/services';
import { type NodeReq, workflowRequest } from '@dsched/testkit/workflows';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useWorkflowFleet } from './workflow-kit.ts';

// A run with every kind of node moves to history and still says what each node was: `sleep`,
// `wait`, `map` (with its parent and its items' count) and the map's items `<map>~<index>`, read
// back through task-api exactly as the live run read. Its wait nodes' signal URLs then answer 409,
// as the keyed route does (the run has ended), not 404; a token that is not the node's stays 404.
// Services as processes, a loopback target, real MariaDB and Cassandra.

const fleet = useWorkflowFleet(import.meta.url, {
  adminToken: 'workflow-kinds-history-admin-token-0123',
  settings: { ARCHIVER_INTERVAL_MS: '100' },
});
const { db, api, start } = fleet;
let target: ScriptedTarget;

beforeAll(async () => {
  // The root answers the array its map goes over; every other call its own index or name.
  target = await startScriptedTarget((call) =>
    call.path.endsWith('/root')
      ? { status: 200, body: '[{"n":1},{"n":2},{"n":3}]' }
      : {
          status: 200,
          body: JSON.stringify({ at: call.path.split('/').at(-1), i: call.headers['dsched-map-index'] }),
        },
  );
  // The archiver starts only once the live run has been read.
  await Promise.all([start('task-api'), start('reconciler'), start('executor')]);
  await fleet.createTenant('kinds');
}, 120_000);
afterAll(async () => {
  await target?.close();
});

const nodesOf = async (id: string) => {
  const res = await api('GET', `/v1/workflows/${id}/nodes?limit=100`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.nodes as { id: string; kind?: string; state: string; signalUrl?: string }[];
};

const post = (url: string, body?: unknown) =>
  fetch(url, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

async function liveRows(id: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM workflows WHERE id = ?', [
    idToBin(id),
  ]);
  return Number(rows[0]!.n);
}

it('an archived run keeps its nodes’ kinds, and its signal URLs answer 409 like the keyed route', async () => {
  const nodes: NodeReq[] = [
    { id: 'root' },
    { id: 'nap', kind: 'sleep', sleep: { for: '1s' }, dependsOn: ['root'] },
    { id: 'items', kind: 'map', map: { over: 'root' }, dependsOn: ['root'] },
    { id: 'approve', kind: 'wait', wait: { timeoutS: 600 }, dependsOn: ['root'] },
    { id: 'gate', kind: 'wait', wait: { timeoutS: 2, onTimeout: 'succeed' }, dependsOn: ['root'] },
    { id: 'sink', dependsOn: ['nap', 'items', 'approve', 'gate'], inputs: 'parents' },
  ];
  const submitted = await api(
    'POST',
    '/v1/workflows',
    workflowRequest('kinds', `${target.url}/kinds`, nodes),
  );
  expect(submitted.status, JSON.stringify(submitted.json)).toBe(201);
  const id = submitted.json.id as string;

  // Both wait nodes waiting: their URLs, taken while they show them.
  const urls = await eventually(
    async () => {
      const waiting = (await nodesOf(id)).filter((n) => n.kind === 'wait' && n.state === 'pending');
      return waiting.length === 2 ? Object.fromEntries(waiting.map((n) => [n.id, n.signalUrl!])) : undefined;
    },
    30_000,
    'both wait nodes waiting',
  );
  expect((await post(urls.approve!, { ok: true })).status).toBe(200);
  await eventually(
    async () => ((await api('GET', `/v1/workflows/${id}`)).json.state === 'succeeded' ? true : undefined),
    30_000,
    'run succeeded',
  );

  const live = await nodesOf(id);
  expect(live.map((n) => [n.id, n.kind ?? 'call', n.state])).toEqual([
    ['approve', 'wait', 'succeeded'],
    ['gate', 'wait', 'succeeded'],
    ['items', 'map', 'succeeded'],
    ['items~0', 'call', 'succeeded'],
    ['items~1', 'call', 'succeeded'],
    ['items~2', 'call', 'succeeded'],
    ['nap', 'sleep', 'succeeded'],
    ['root', 'call', 'succeeded'],
    ['sink', 'call', 'succeeded'],
  ]);
  expect(live.find((n) => n.id === 'items')).toMatchObject({ map: { over: 'root', count: 3, made: 3 } });
  const summary = (await api('GET', `/v1/workflows/${id}`)).json;

  await start('archiver');
  await eventually(
    async () => ((await liveRows(id)) === 0 ? true : undefined),
    60_000,
    'run moved to history',
  );
  // Read from Cassandra now: every node as it was, kinds, the map's fields and the items included.
  expect(await nodesOf(id)).toEqual(live);
  expect((await api('GET', `/v1/workflows/${id}`)).json).toEqual(summary);
  expect((await api('GET', `/v1/workflows/${id}/nodes?state=succeeded&limit=100`)).json.nodes).toEqual(live);

  // Signals to the archived run: 409 through the URL (used or not) as through the key.
  for (const url of [urls.approve!, urls.gate!]) {
    const res = await post(url, { late: true });
    expect(res.status, url).toBe(409);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 'conflict',
      details: [{ field: 'id', issue: 'archived' }],
    });
  }
  const keyed = await api('POST', `/v1/workflows/${id}/nodes/gate/signal`, { payload: { late: true } });
  expect(keyed.status).toBe(409);
  expect(keyed.json.error).toMatchObject({ details: [{ field: 'id', issue: 'archived' }] });
  // A token that is not the node's learns nothing about the run: 404 as for a run that never was.
  const crossed = urls.gate!.replace('/nodes/gate/', '/nodes/approve/');
  expect((await post(crossed)).status).toBe(404);
  const forged = urls.gate!.replace(/sig_[A-Za-z0-9_-]{43}$/, `sig_${'A'.repeat(43)}`);
  expect((await post(forged)).status).toBe(404);
  expect((await post(urls.gate!.replace('/nodes/gate/', '/nodes/nope/'))).status).toBe(404);
  // Still in history, untouched.
  expect(await nodesOf(id)).toEqual(live);
}, 180_000);
