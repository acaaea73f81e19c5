import { createHash } from 'node:crypto';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Sleep and wait nodes through task-api's routes, on real MariaDB: what a submission may say (400
// naming the field, nothing stored) and how the nodes read back.

let t: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url);
});
afterAll(async () => {
  await t.close();
});

const call = (id: string, dependsOn: string[] = []) => ({
  id,
  target: { url: 'https://example.test/hook' },
  dependsOn,
});

async function storedRows(): Promise<number> {
  const [rows] = await t.db.pool.query<RowDataPacket[]>(
    `SELECT (SELECT COUNT(*) FROM workflows) + (SELECT COUNT(*) FROM workflow_nodes)
            + (SELECT COUNT(*) FROM jobs WHERE workflow_id IS NOT NULL) AS n`,
  );
  return Number(rows[0]!.n);
}

describe('submitting sleep and wait nodes', () => {
  it('refuses a bad sleep or wait with 400 naming the field; nothing is stored', async () => {
    const c = await tenantClient(t.app);
    const before = await storedRows();
    const inAYearAndADay = new Date(Date.now() + 366 * 86_400_000).toISOString();
    const cases: [Record<string, unknown>, string][] = [
      [{ id: 's', kind: 'sleep', sleep: { for: '0s' } }, 'nodes.1.sleep.for'],
      [{ id: 's', kind: 'sleep', sleep: { for: '366d' } }, 'nodes.1.sleep.for'],
      [{ id: 's', kind: 'sleep', sleep: { for: 'ten minutes' } }, 'nodes.1.sleep.for'],
      [{ id: 's', kind: 'sleep', sleep: {} }, 'nodes.1.sleep'],
      [{ id: 's', kind: 'sleep', sleep: { for: '1m', until: inAYearAndADay } }, 'nodes.1.sleep'],
      [{ id: 's', kind: 'sleep' }, 'nodes.1.sleep'],
      [{ id: 's', kind: 'sleep', sleep: { until: '2020-01-01T00:00:00Z' } }, 'nodes.1.sleep.until'],
      [{ id: 's', kind: 'sleep', sleep: { until: inAYearAndADay } }, 'nodes.1.sleep.until'],
      [{ id: 's', kind: 'sleep', sleep: { until: 'tomorrow' } }, 'nodes.1.sleep.until'],
      [{ id: 's', kind: 'sleep', sleep: { for: '1m' }, target: { url: 'https://x.test' } }, 'nodes.1.target'],
      [{ id: 'w', kind: 'wait', wait: {} }, 'nodes.1.wait.timeoutS'],
      [{ id: 'w', kind: 'wait' }, 'nodes.1.wait'],
      [{ id: 'w', kind: 'wait', wait: { timeoutS: 0 } }, 'nodes.1.wait.timeoutS'],
      [{ id: 'w', kind: 'wait', wait: { timeoutS: 60, onTimeout: 'retry' } }, 'nodes.1.wait.onTimeout'],
      [{ id: 'w', kind: 'wait', wait: { timeoutS: 60 }, sleep: { for: '1m' } }, 'nodes.1.sleep'],
      [{ id: 'x', target: { url: 'https://x.test' }, wait: { timeoutS: 60 } }, 'nodes.1.wait'],
      [{ id: 'x' }, 'nodes.1.target'],
    ];
    for (const [bad, field] of cases) {
      const res = await c.call('POST', '/v1/workflows', { name: 'bad', nodes: [call('a'), bad] });
      const fields =
        res.statusCode === 400 ? res.json().error.details.map((d: { field: string }) => d.field) : [];
      expect([JSON.stringify(bad), res.statusCode, fields]).toEqual([JSON.stringify(bad), 400, [field]]);
    }
    expect(await storedRows()).toBe(before);
  });

  it('shows the kind of each sleep and wait node (a call says none), and a sleeper’s wake time', async () => {
    const c = await tenantClient(t.app);
    const until = new Date(Date.now() + 3_600_000);
    const res = await c.call('POST', '/v1/workflows', {
      name: 'kinds',
      nodes: [
        call('a'),
        { id: 's', kind: 'sleep', sleep: { until: until.toISOString() } },
        { id: 'w', kind: 'wait', wait: { timeoutS: 3600 }, dependsOn: ['a'] },
      ],
    });
    expect(res.statusCode).toBe(201);
    const nodes = (await c.call('GET', `/v1/workflows/${res.json().id}/nodes`)).json().nodes;
    expect(nodes.map((n: { id: string; kind: string }) => [n.id, n.kind])).toEqual([
      ['a', undefined],
      ['s', 'sleep'],
      ['w', 'wait'],
    ]);
    const s = nodes.find((n: { id: string }) => n.id === 's');
    expect(s.state).toBe('pending');
    expect(s.wakeAt).toBe(until.toISOString());
  });
});

describe('signals', () => {
  async function waitRun(c: Awaited<ReturnType<typeof tenantClient>>, nodes?: unknown[]) {
    const res = await c.call('POST', '/v1/workflows', {
      name: 'approval',
      nodes: nodes ?? [
        { id: 'w', kind: 'wait', wait: { timeoutS: 3600 } },
        { ...call('c', ['w']), inputs: 'parents' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  const nodeOf = async (c: Awaited<ReturnType<typeof tenantClient>>, id: string, nodeId: string) =>
    (await c.call('GET', `/v1/workflows/${id}/nodes`))
      .json()
      .nodes.find((n: { id: string }) => n.id === nodeId);

  it('through the signal URL, with no key: the node succeeds with the body as its output, once', async () => {
    const c = await tenantClient(t.app);
    const id = await waitRun(c);
    const w = await nodeOf(c, id, 'w');
    expect(w.signalUrl).toMatch(
      new RegExp(`^http://localhost(:80)?/v1/workflows/${id}/nodes/w/signal/sig_[A-Za-z0-9_-]{43}$`),
    );
    const path = new URL(w.signalUrl).pathname;
    // Only its hash is stored.
    const [rows] = await t.db.pool.query<RowDataPacket[]>(
      "SELECT HEX(signal_hash) AS h FROM workflow_nodes WHERE node_id = 'w' AND workflow_id = UNHEX(REPLACE(?, '-', ''))",
      [id],
    );
    const token = path.split('/').pop()!;
    expect(rows[0]!.h.toLowerCase()).toBe(createHash('sha256').update(token).digest('hex'));

    const wrong = await t.app.inject({ method: 'POST', url: `${path.slice(0, -3)}AAA`, payload: {} });
    expect(wrong.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'POST', url: `/v1/workflows/${id}/nodes/w/signal/nope` });
    expect(malformed.statusCode).toBe(404);

    const res = await t.app.inject({ method: 'POST', url: path, payload: { approved: true, by: 'ann' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: 'w',
      kind: 'wait',
      state: 'succeeded',
      attempt: 1,
      output: { approved: true, by: 'ann' },
    });
    expect(res.json().signalUrl).toBeUndefined();
    const again = await t.app.inject({ method: 'POST', url: path, payload: { approved: false } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details).toEqual([{ field: 'nodeId', issue: 'the node has ended: succeeded' }]);
    expect((await nodeOf(c, id, 'w')).output).toEqual({ approved: true, by: 'ann' });
    expect((await nodeOf(c, id, 'c')).state).toBe('pending');
  });

  it('with the key: {payload}; early is 409 and changes nothing; another tenant 404; no key 401; too large 413', async () => {
    const c = await tenantClient(t.app);
    const id = await waitRun(c, [
      call('p'),
      { id: 'w', kind: 'wait', wait: { timeoutS: 60 }, dependsOn: ['p'] },
    ]);
    expect((await nodeOf(c, id, 'w')).signalUrl).toContain('/signal/sig_');
    const early = await c.call('POST', `/v1/workflows/${id}/nodes/w/signal`, { payload: 1 });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.details[0].issue).toBe('not waiting yet: its parents have not finished');
    expect((await nodeOf(c, id, 'w')).state).toBe('waiting');
    const notWait = await c.call('POST', `/v1/workflows/${id}/nodes/p/signal`, {});
    expect(notWait.statusCode).toBe(409);
    const other = await tenantClient(t.app);
    expect((await other.call('POST', `/v1/workflows/${id}/nodes/w/signal`, {})).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/workflows/${id}/nodes/w/signal` })).statusCode,
    ).toBe(401);
    const big = await c.call('POST', `/v1/workflows/${id}/nodes/w/signal`, { payload: 'x'.repeat(70_000) });
    expect(big.statusCode).toBe(413);
    const unknown = await c.call('POST', `/v1/workflows/${id}/nodes/w/signal`, { payload: 1, extra: 2 });
    expect(unknown.statusCode).toBe(400);

    const id2 = await waitRun(c);
    const res = await c.call('POST', `/v1/workflows/${id2}/nodes/w/signal`, { payload: { ok: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'succeeded', output: { ok: 1 } });
    const [audit] = await t.db.pool.query<RowDataPacket[]>(
      `SELECT a.executor FROM job_attempts a JOIN workflow_nodes n ON n.job_id = a.job_id
        WHERE n.workflow_id = UNHEX(REPLACE(?, '-', '')) AND n.node_id = 'w'`,
      [id2],
    );
    expect(audit[0]!.executor).toBe(`signal: key ${c.apiKey.slice(0, 12)} from 127.0.0.1`);
    const cancelled = await waitRun(c);
    await c.call('POST', `/v1/workflows/${cancelled}/cancel`);
    expect((await c.call('POST', `/v1/workflows/${cancelled}/nodes/w/signal`, {})).statusCode).toBe(409);
  });
});
