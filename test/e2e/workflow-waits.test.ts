import type { RowDataPacket } from '@dsched/mysql/pool';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { type NodeReq, workflowRequest } from '@dsched/testkit/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metric } from './executor-kit.ts';
import { useWorkflowFleet } from './workflow-kit.ts';

// Nodes that wait, end to end: task-api, an executor and a reconciler as processes, a loopback
// target, real MariaDB. A sleeper's child is called after its wake time and within a tick of it;
// sleepers hold no executor slot; every service killed -9 during a sleep, the sleep still ends once.
// A wait node signalled through its URL with no key succeeds and its child gets the payload; a
// second signal and an early one are 409; a timeout fails the run or lets the children run.

const POLL_MS = 50;
const fleet = useWorkflowFleet(import.meta.url, {
  adminToken: 'workflow-waits-admin-token-0123456789',
  settings: {
    EXECUTOR_POLL_MS: String(POLL_MS),
    // Two call slots: sleepers that held one would leave a call no room.
    EXECUTOR_DEFAULT_CONCURRENCY: '2',
    EXECUTOR_LEASE_S: '3',
  },
});
const { db, api } = fleet;
let target: ScriptedTarget;
/** The services running now, by name (a test kills them all and starts them again). */
const running = new Map<string, RunningService>();
/** Paths the target answers only after this many ms. */
const slow = new Map<string, number>();

async function startFleet(): Promise<void> {
  const names = ['task-api', 'executor', 'reconciler'] as const;
  for (const s of await Promise.all(names.map((n) => fleet.start(n)))) running.set(s.name, s);
}
const service = (name: string): RunningService => running.get(name)!;

beforeAll(async () => {
  target = await startScriptedTarget(async (call) => {
    const delay = slow.get(call.path);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    return { status: 200, body: '{"ok":true}' };
  });
  await startFleet();
  await fleet.createTenant('waits');
});
afterAll(async () => {
  await target?.close();
});

async function submit(prefix: string, nodes: NodeReq[]): Promise<string> {
  const res = await api('POST', '/v1/workflows', workflowRequest(prefix, `${target.url}/${prefix}`, nodes));
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

const finished = (id: string, timeoutMs = 30_000) =>
  eventually(
    async () => {
      const wf = (await api('GET', `/v1/workflows/${id}`)).json;
      return wf.state === 'running' ? undefined : wf;
    },
    timeoutMs,
    `workflow ${id} finished`,
  );

const callsTo = (prefix: string, node: string) => target.calls.filter((c) => c.path === `/${prefix}/${node}`);

/** A node's job's wake time (its scheduled_for), in ms since the epoch of the database clock. */
async function wakeTimeMs(workflowId: string, nodeId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT j.scheduled_for FROM workflow_nodes n JOIN jobs j ON j.id = n.job_id
      WHERE n.workflow_id = UNHEX(REPLACE(?, '-', '')) AND n.node_id = ?`,
    [workflowId, nodeId],
  );
  return (rows[0]!.scheduled_for as Date).getTime();
}

describe('sleep nodes, end to end', () => {
  it('the child starts after the sleep and within a tick of its end', async () => {
    const id = await submit('tick', [
      { id: 'p' },
      { id: 's', kind: 'sleep', sleep: { for: '2s' }, dependsOn: ['p'] },
      { id: 'c', dependsOn: ['s'] },
    ]);
    const wf = await finished(id);
    expect(wf.state).toBe('succeeded');
    const wake = await wakeTimeMs(id, 's');
    const [p] = callsTo('tick', 'p');
    const [c] = callsTo('tick', 'c');
    expect(callsTo('tick', 's')).toEqual([]);
    // The sleep counts from when it was reached (after p answered), and the child waits for it.
    expect(wake - p!.receivedAt).toBeGreaterThanOrEqual(2000);
    expect(c!.receivedAt).toBeGreaterThanOrEqual(wake);
    // Within a tick: the waker's poll, the wake's transaction, the child's claim. A bound for a
    // loaded shared machine, far under the sleep itself; the measured lag is in docs/workflows.md.
    expect(c!.receivedAt - wake).toBeLessThan(20 * POLL_MS);
    const nodes = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes;
    expect(nodes.find((n: { id: string }) => n.id === 's')).toMatchObject({
      kind: 'sleep',
      state: 'succeeded',
    });
  });

  it('sleepers hold no executor slot: calls run past them while they sleep', async () => {
    const sleepers: NodeReq[] = Array.from({ length: 1000 }, (_, i) => ({
      id: `z${i}`,
      kind: 'sleep' as const,
      sleep: { for: '8s' },
    }));
    const id = await submit('slots', [...sleepers, { id: 'after', dependsOn: sleepers.map((s) => s.id) }]);
    // A thousand asleep on an executor of two call slots: other runs' calls go through, none is in
    // flight for a sleeper.
    const other = await submit('beside', [
      { id: 'a' },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['b'] },
    ]);
    expect((await finished(other)).state).toBe('succeeded');
    expect((await api('GET', `/v1/workflows/${id}`)).json.nodes.pending).toBe(1000);
    expect(await metric(service('executor'), 'dsched_executor_in_flight')).toBe(0);
    expect((await finished(id, 60_000)).state).toBe('succeeded');
    expect(callsTo('slots', 'after')).toHaveLength(1);
    expect(target.calls.filter((c) => c.path.startsWith('/slots/z'))).toEqual([]);
  });

  it('every service killed -9 during a sleep: it still wakes, once', async () => {
    const id = await submit('crash', [
      { id: 's', kind: 'sleep', sleep: { for: '3s' } },
      { id: 'c', dependsOn: ['s'] },
    ]);
    await Promise.all([...running.values()].map((s) => s.stop('SIGKILL')));
    running.clear();
    await startFleet();
    const wf = await finished(id);
    expect(wf.state).toBe('succeeded');
    expect(callsTo('crash', 'c')).toHaveLength(1);
    const nodes = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes;
    expect(nodes.find((n: { id: string }) => n.id === 's')).toMatchObject({ state: 'succeeded', attempt: 0 });
  });
});

describe('wait nodes, end to end', () => {
  const signalUrlOf = async (id: string, nodeId: string): Promise<string> =>
    (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes.find((n: { id: string }) => n.id === nodeId)
      .signalUrl;
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('a signal through the URL, without a key, succeeds the node and its child receives the payload; a second is 409', async () => {
    const id = await submit('approve', [
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
      { id: 'c', dependsOn: ['w'], inputs: 'parents' },
    ]);
    const url = await signalUrlOf(id, 'w');
    expect(url.startsWith(`${service('task-api').url}/v1/workflows/${id}/nodes/w/signal/sig_`)).toBe(true);
    const res = await post(url, { approved: true, by: 'ann' });
    expect(res.status).toBe(200);
    expect((await finished(id)).state).toBe('succeeded');
    const [c] = callsTo('approve', 'c');
    expect(JSON.parse(c!.body).parents).toEqual({ w: { approved: true, by: 'ann' } });
    const again = await post(url, { approved: false });
    expect(again.status).toBe(409);
    expect(callsTo('approve', 'c')).toHaveLength(1);
  });

  it('a signal before the node waits is 409 and changes nothing; the later one works', async () => {
    slow.set('/early/p', 1500);
    const id = await submit('early', [
      { id: 'p' },
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 }, dependsOn: ['p'] },
    ]);
    const url = await signalUrlOf(id, 'w');
    const early = await post(url, { n: 1 });
    expect(early.status).toBe(409);
    expect(
      ((await early.json()) as { error: { details: { issue: string }[] } }).error.details[0]!.issue,
    ).toBe('not waiting yet: its parents have not finished');
    await eventually(
      async () => {
        const nodes = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes;
        return nodes.find((n: { id: string }) => n.id === 'w').state === 'pending' ? true : undefined;
      },
      10_000,
      'w waiting for its signal',
    );
    const later = await api('POST', `/v1/workflows/${id}/nodes/w/signal`, { payload: { n: 2 } });
    expect(later.status).toBe(200);
    expect(later.json).toMatchObject({ state: 'succeeded', output: { n: 2 } });
    expect((await finished(id)).state).toBe('succeeded');
  });

  it('a timeout with `fail` fails the run; with `succeed` lets the children run', async () => {
    const failing = await submit('tfail', [
      { id: 'w', kind: 'wait', wait: { timeoutS: 1 } },
      { id: 'c', dependsOn: ['w'] },
    ]);
    const passing = await submit('tpass', [
      { id: 'w', kind: 'wait', wait: { timeoutS: 1, onTimeout: 'succeed' } },
      { id: 'c', dependsOn: ['w'] },
    ]);
    expect((await finished(failing)).state).toBe('failed');
    expect(callsTo('tfail', 'c')).toEqual([]);
    expect((await finished(passing)).state).toBe('succeeded');
    expect(callsTo('tpass', 'c')).toHaveLength(1);
    const nodes = (await api('GET', `/v1/workflows/${failing}/nodes`)).json.nodes;
    expect(nodes.map((n: { id: string; state: string }) => [n.id, n.state])).toEqual([
      ['c', 'upstream_failed'],
      ['w', 'dead'],
    ]);
  });
});
