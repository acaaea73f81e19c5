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

  it('shows each node’s kind, and a sleeper’s wake time', async () => {
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
      ['a', 'call'],
      ['s', 'sleep'],
      ['w', 'wait'],
    ]);
    const s = nodes.find((n: { id: string }) => n.id === 's');
    expect(s.state).toBe('pending');
    expect(s.wakeAt).toBe(until.toISOString());
  });
});
