import type { RowDataPacket } from '@dsched/mysql/pool';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { type NodeReq, workflowRequest } from '@dsched/testkit/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorkflowFleet } from './workflow-kit.ts';

// Map nodes, end to end (docs/workflows.md "Map nodes"): task-api, an executor and a reconciler as
// processes, a loopback target, real MariaDB. A parent answers an array; the map node calls the
// target once per item (the item as the body, its index in Dsched-Map-Index; again, under the same
// key, only after the reconciler gave an attempt back: at least once), one item failing twice and
// then succeeding under its one key, and ends with the items' outputs in order; the
// executor killed -9 in the middle of a map: every item still called, and never under two keys;
// a parent answering something else than an array fails the map node, saying so.
//
// DSCHED_MAP_E2E_ITEMS sets the sizes (1,000 items in the first test, 3,000 in the kill, in CI): the
// issue's 10,000 is `DSCHED_MAP_E2E_ITEMS=10000 pnpm vitest run test/e2e/workflow-map.test.ts`.
const ITEMS = Number(process.env.DSCHED_MAP_E2E_ITEMS ?? 1_000);

const fleet = useWorkflowFleet(import.meta.url, {
  adminToken: 'workflow-map-admin-token-0123456789',
  settings: { EXECUTOR_LEASE_S: '3' },
});
const { db, api } = fleet;
let target: ScriptedTarget;
let executor: RunningService;
let reconciler: RunningService;
/** What each run's parent `p` answers, by the run's prefix. */
const parentBodies = new Map<string, string>();
/** Per prefix: the item index that fails twice before it succeeds. */
const flaky = new Map<string, number>();
/** Per prefix: how long each item's call takes. */
const itemDelayMs = new Map<string, number>();
/** Per prefix: item calls in flight at the target now, and the most ever at once. */
const inFlight = new Map<string, { now: number; peak: number }>();

beforeAll(async () => {
  target = await startScriptedTarget(async (call) => {
    const [, prefix = '', node] = call.path.split('/');
    if (node === 'p') return { status: 200, body: parentBodies.get(prefix) ?? '[]' };
    if (node !== 'm') return { status: 200, body: '{"ok":true}' };
    const index = Number(call.headers['dsched-map-index']);
    const delay = itemDelayMs.get(prefix);
    const flight = inFlight.get(prefix) ?? { now: 0, peak: 0 };
    inFlight.set(prefix, flight);
    flight.now++;
    flight.peak = Math.max(flight.peak, flight.now);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    flight.now--;
    if (flaky.get(prefix) === index && call.attempt <= 2) return { status: 503, body: 'not yet' };
    return { status: 200, body: JSON.stringify({ i: index }) };
  });
  [, executor, reconciler] = await Promise.all([
    fleet.start('task-api'),
    fleet.start('executor'),
    fleet.start('reconciler'),
  ]);
  await fleet.createTenant('maps');
});
afterAll(async () => {
  await target?.close();
});

/** p → m (a map over p's output) → c. */
async function submitMap(
  prefix: string,
  parentBody: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  parentBodies.set(prefix, parentBody);
  const nodes: NodeReq[] = [
    { id: 'p' },
    { id: 'm', kind: 'map', map: { over: 'p', maxItems: 10_000 }, dependsOn: ['p'] },
    { id: 'c', dependsOn: ['m'] },
  ];
  const res = await api(
    'POST',
    '/v1/workflows',
    workflowRequest(prefix, `${target.url}/${prefix}`, nodes, {
      retry: { maxAttempts: 5, initialBackoffMs: 0, maxBackoffMs: 0 },
      extra,
    }),
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

const finished = (id: string, timeoutMs = 60_000) =>
  eventually(
    async () => {
      const wf = (await api('GET', `/v1/workflows/${id}`)).json;
      return wf.state === 'running' ? undefined : wf;
    },
    timeoutMs,
    `workflow ${id} finished`,
  );

const itemCalls = (prefix: string) => target.calls.filter((c) => c.path === `/${prefix}/m`);

/** Per item index: its calls' Idempotency-Keys, and how many calls. */
function keysByIndex(prefix: string): Map<number, { keys: Set<string>; calls: number }> {
  const byIndex = new Map<number, { keys: Set<string>; calls: number }>();
  for (const c of itemCalls(prefix)) {
    const index = Number(c.headers['dsched-map-index']);
    const seen = byIndex.get(index) ?? { keys: new Set<string>(), calls: 0 };
    seen.keys.add(c.idempotencyKey);
    seen.calls++;
    byIndex.set(index, seen);
  }
  return byIndex;
}

/** What the record says of one item called other than once (explainItems). */
interface ItemRecord {
  index: number;
  /** Its calls at the target: the attempt and the Idempotency-Key of each. */
  calls: string[];
  /** Its job's attempts as job_attempts ended them: attempt, executor, status, error class, times. */
  attempts: string[];
  /** At least once as designed: see explainItems. */
  givenBack: boolean;
  /** The executor's and the reconciler's warnings and errors, and their lines naming the job. */
  logged: string[];
}

/**
 * The record of items called other than once: each call's attempt and key, how each of the item
 * job's attempts ended, and what the executor and the reconciler logged. `givenBack` is at least
 * once working as designed (docs/workflows.md: a node's effect at least once, one key): one key,
 * attempts 1…k each called once, each before the last ended by the reconciler giving it back
 * (`lease_expired`) or by the target's answer (`http_status`), the last one answered 200. Anything
 * else (an attempt called twice, two keys, a call again with no end recorded) is not.
 */
async function explainItems(id: string, prefix: string, indexes: number[], n: number): Promise<ItemRecord[]> {
  const records: ItemRecord[] = [];
  // One item after another: the failing machine is a loaded one (a burst of connections to vtgate
  // there timed out once).
  for (const index of indexes) records.push(await itemRecord(id, prefix, index, n));
  return records;
}

async function itemRecord(id: string, prefix: string, index: number, n: number): Promise<ItemRecord> {
  const calls = itemCalls(prefix).filter((c) => Number(c.headers['dsched-map-index']) === index);
  const [nodes] = await db.pool.query<RowDataPacket[]>(
    `SELECT job_id FROM workflow_nodes WHERE workflow_id = UNHEX(REPLACE(?, '-', '')) AND node_id = ?`,
    [id, `m~${String(index).padStart(String(n - 1).length, '0')}`],
  );
  const jobId = nodes[0]?.job_id as Buffer | undefined;
  const [attempts] = jobId
    ? await db.pool.query<RowDataPacket[]>(
        `SELECT attempt, executor, status, error_class, started_at, finished_at
           FROM job_attempts WHERE job_id = ? ORDER BY attempt`,
        [jobId],
      )
    : [[]];
  const called = calls.map((c) => c.attempt);
  const ended = new Map(attempts.map((a) => [Number(a.attempt), a]));
  const givenBack =
    new Set(calls.map((c) => c.idempotencyKey)).size === 1 &&
    called.join() === called.map((_, i) => i + 1).join() &&
    called.every((attempt, i) =>
      i === called.length - 1
        ? ended.get(attempt)?.status === 200
        : ['lease_expired', 'http_status'].includes(String(ended.get(attempt)?.error_class)),
    );
  const hex = jobId?.toString('hex') ?? '?';
  const logged = [executor, reconciler]
    .flatMap((s) =>
      s
        .output()
        .split('\n')
        .map((line) => `${s.name}: ${line}`),
    )
    .filter(
      (line) =>
        /"level":"(warn|error|fatal)"/.test(line) ||
        (hex !== '?' && line.replaceAll('-', '').toLowerCase().includes(hex)),
    )
    .slice(-20);
  const at = (d: Date | null) => (d ? d.toISOString().slice(11, 23) : '-');
  return {
    index,
    calls: calls.map((c) => `attempt ${c.attempt} key ${c.idempotencyKey}`),
    attempts: attempts.map(
      (a) =>
        `${a.attempt} ${a.executor} ${a.status ?? '-'} ${a.error_class ?? '-'} ${at(a.started_at)}-${at(a.finished_at)}`,
    ),
    givenBack,
    logged,
  };
}

async function mapNode(id: string) {
  const page = (await api('GET', `/v1/workflows/${id}/nodes?limit=2`)).json.nodes;
  return page.find((n: { id: string }) => n.id === 'm');
}

describe('map nodes, end to end', () => {
  it(
    'call each item once, one failing twice under its one key, and end with the outputs in order',
    async () => {
      const n = ITEMS;
      flaky.set('each', 7);
      const id = await submitMap('each', JSON.stringify(Array.from({ length: n }, (_, i) => ({ row: i }))));
      const wf = await finished(id, 60_000 + n * 20);
      expect(wf.state).toBe('succeeded');
      expect(wf.nodeCount).toBe(3 + n);
      const byIndex = keysByIndex('each');
      expect(byIndex.size).toBe(n);
      // Each item once under its one key, item 7 three times; or called again only after the
      // reconciler gave its attempt back: at least once, as designed. Seen through vtgate at load
      // 44-71: the executor, starved of CPU, let its 3 s leases lapse, and a run of items was given
      // back and called again (each attempt once, one key). Any other extra call fails, with the
      // record of each item (its calls, its attempts' ends, the services' warnings).
      const odd = [...byIndex]
        .filter(([index, seen]) => seen.keys.size !== 1 || seen.calls !== (index === 7 ? 3 : 1))
        .map(([index]) => index);
      const records = odd.length === 0 ? [] : await explainItems(id, 'each', odd, n);
      expect(records.filter((r) => !r.givenBack)).toEqual([]);
      expect(byIndex.get(7)!.calls).toBeGreaterThanOrEqual(3);
      if (records.length > 0) {
        process.stdout.write(
          `map each: ${records.length} items given back (lease expired) and called again, each attempt once under its one key\n`,
        );
      }
      // Sink side: one effect per item.
      expect(new Set(itemCalls('each').map((c) => c.idempotencyKey)).size).toBe(n);
      const call42 = itemCalls('each').find((c) => c.headers['dsched-map-index'] === '42')!;
      expect(JSON.parse(call42.body)).toEqual({ row: 42 });
      const m = await mapNode(id);
      expect(m).toMatchObject({ kind: 'map', state: 'succeeded', map: { over: 'p', count: n, made: n } });
      expect(m.output).toHaveLength(n);
      expect(m.output.map((o: { i: number }) => o.i)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(target.calls.filter((c) => c.path === '/each/c')).toHaveLength(1);
      // The items are listed among the nodes, in index order.
      const items = (await api('GET', `/v1/workflows/${id}/nodes?limit=3`)).json.nodes;
      expect(items.map((x: { id: string }) => x.id)).toEqual([
        'c',
        'm',
        `m~${'0'.repeat(String(n - 1).length)}`,
      ]);
    },
    120_000 + ITEMS * 30,
  );

  it(
    'the executor killed -9 in the middle of a map: no item lost, none called under two keys',
    async () => {
      const n = Math.max(3_000, ITEMS);
      itemDelayMs.set('kill', 5);
      const id = await submitMap('kill', JSON.stringify(Array.from({ length: n }, (_, i) => i)));
      await target.until(() => itemCalls('kill').length >= 500, 60_000, '500 item calls');
      await executor.stop('SIGKILL');
      executor = await fleet.start('executor');
      const wf = await finished(id, 120_000 + n * 20);
      expect(wf.state).toBe('succeeded');
      const byIndex = keysByIndex('kill');
      expect(byIndex.size).toBe(n);
      const twoKeys = [...byIndex].filter(([, seen]) => seen.keys.size !== 1).map(([i]) => i);
      expect(twoKeys).toEqual([]);
      // The kill cut calls short: those items were called again, under the same key.
      const again = [...byIndex].filter(([, seen]) => seen.calls > 1).length;
      expect(again).toBeGreaterThan(0);
      process.stdout.write(
        `map kill: ${n} items, ${again} called again after the kill, each under its one key\n`,
      );
      expect(target.calls.filter((c) => c.path === '/kill/c')).toHaveLength(1);
    },
    180_000 + ITEMS * 30,
  );

  it('items hold to the run’s maxParallel like its other nodes: never more in flight at the target', async () => {
    const n = 60;
    itemDelayMs.set('capped', 100);
    const id = await submitMap('capped', JSON.stringify(Array.from({ length: n }, (_, i) => i)), {
      maxParallel: 3,
    });
    const wf = await finished(id);
    expect(wf.state).toBe('succeeded');
    expect(keysByIndex('capped').size).toBe(n);
    // The executor would run them all at once (its slots are many more): the run's cap holds them
    // to 3, and they do use all 3.
    expect(inFlight.get('capped')!.peak).toBe(3);
  });

  it('a parent that answers something else than an array fails the map node, saying so', async () => {
    const id = await submitMap('object', '{"rows": 3}');
    const wf = await finished(id);
    expect(wf.state).toBe('failed');
    const m = await mapNode(id);
    expect(m.state).toBe('dead');
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT j.last_error FROM workflow_nodes n JOIN jobs j ON j.id = n.job_id
        WHERE n.workflow_id = UNHEX(REPLACE(?, '-', '')) AND n.node_id = 'm'`,
      [id],
    );
    expect(rows[0]!.last_error).toBe('map over "p": its output is an object, not a JSON array');
    expect(itemCalls('object')).toEqual([]);
    expect(target.calls.filter((c) => c.path === '/object/c')).toEqual([]);
  });
});
