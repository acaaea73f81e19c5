import { idToBin } from '@dsched/mysql/ids';
import { runOperationBatch, takeOperation } from '@dsched/mysql/operations';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { insertJobs } from '@dsched/testkit/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Bulk operations (docs/bulk-operations.md) through task-api's routes on real MariaDB: bad input is
// a 400 naming the field and changes nothing, a dry run only counts, an operation is read, listed
// and cancelled; the batches are the reconciler's own code (packages/mysql/src/operations).

let t: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  t = await buildTestApp(import.meta.url);
});
afterAll(async () => {
  await t.close();
});

type Client = Awaited<ReturnType<typeof tenantClient>>;

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [rows] = await t.db.pool.query<RowDataPacket[]>(sql, params);
  return Number(rows[0]!.n);
}

/** Pending jobs of the tenant tagged team:ops, and one of another tag. */
async function seed(c: Client, n: number): Promise<string[]> {
  const at = (i: number) => new Date(Date.now() - (100 - i) * 1000);
  const ids = await insertJobs(
    t.db.pool,
    Array.from({ length: n }, (_, i) => ({
      tenantId: c.id,
      taskId: null,
      scheduledFor: at(i),
      state: 'pending' as const,
      tags: { team: 'ops' },
    })),
  );
  await insertJobs(t.db.pool, [
    { tenantId: c.id, taskId: null, scheduledFor: at(0), state: 'pending', tags: { team: 'other' } },
  ]);
  return ids;
}

const pendingOf = (c: Client) =>
  count("SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND state = 'pending'", [idToBin(c.id)]);

describe('POST /v1/operations', () => {
  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const c = await tenantClient(t.app);
    await seed(c, 3);
    const before = await pendingOf(c);
    for (const [body, field] of [
      [{ action: 'cancel', filter: {} }, 'filter'],
      [{ action: 'cancel' }, 'filter'],
      [{ action: 'cancel', filter: { state: 'pending' } }, 'filter'],
      [{ action: 'cancel', filter: { team: 'ops' } }, 'filter.team'],
      [{ action: 'cancel', filter: { tag: 'team' } }, 'filter.tag'],
      [{ action: 'cancel', filter: { tag: ['a:1', 'b:2', 'c:3', 'd:4', 'e:5', 'f:6'] } }, 'filter.tag'],
      [{ action: 'cancel', filter: { taskId: 'nope' } }, 'filter.taskId'],
      [{ action: 'redrive', filter: { tag: 'team:ops', state: 'pending' } }, 'filter.state'],
      [{ action: 'pause', filter: { tag: 'team:ops', from: '2026-01-01T00:00:00Z' } }, 'filter.from'],
      [
        { action: 'cancel', filter: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } },
        'filter.from',
      ],
      [{ action: 'delete', filter: { tag: 'team:ops' } }, 'action'],
      // A last error's text narrows a filter; it is not one alone, nor one for tasks.
      [{ action: 'redrive', filter: { errorContains: 'HTTP 503' } }, 'filter'],
      [
        { action: 'redrive', filter: { tag: 'team:ops', errorContains: 'x'.repeat(201) } },
        'filter.errorContains',
      ],
      [{ action: 'redrive', filter: { tag: 'team:ops', errorContains: '' } }, 'filter.errorContains'],
      [{ action: 'pause', filter: { tag: 'team:ops', errorContains: 'HTTP' } }, 'filter.errorContains'],
    ] as const) {
      const res = await c.call('POST', '/v1/operations', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        res.json().error.details.map((d: { field: string }) => d.field),
        res.body,
      ).toContain(field);
    }
    expect(await pendingOf(c)).toBe(before);
    expect(await count('SELECT COUNT(*) AS n FROM operations WHERE tenant_id = ?', [idToBin(c.id)])).toBe(0);
  });

  it('as a dry run says how many it would change, and changes and stores nothing', async () => {
    const c = await tenantClient(t.app);
    await seed(c, 4);
    const before = await pendingOf(c);
    const res = await c.call('POST', '/v1/operations', {
      action: 'cancel',
      filter: { tag: 'team:ops' },
      dryRun: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ dryRun: true, matched: 4 });
    expect(await pendingOf(c)).toBe(before);
    expect(await count('SELECT COUNT(*) AS n FROM operations WHERE tenant_id = ?', [idToBin(c.id)])).toBe(0);
  });
});

describe('an operation', () => {
  it('is read, listed newest first page by page, cancelled between batches, and hidden from others', async () => {
    const c = await tenantClient(t.app);
    await seed(c, 5);
    const started = await c.call('POST', '/v1/operations', { action: 'cancel', filter: { tag: 'team:ops' } });
    expect(started.statusCode, started.body).toBe(202);
    const op = started.json();
    expect(op).toMatchObject({
      action: 'cancel',
      filter: { tag: ['team:ops'] },
      state: 'running',
      matched: 5,
      done: 0,
      failed: 0,
      cancelRequested: false,
    });
    const second = (
      await c.call('POST', '/v1/operations', { action: 'redrive', filter: { tag: 'team:ops' } })
    ).json();

    const ids: string[] = [];
    let token: string | undefined;
    do {
      const res = await c.call('GET', `/v1/operations?limit=1${token ? `&pageToken=${token}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      ids.push(...res.json().operations.map((o: { id: string }) => o.id));
      token = res.json().nextPageToken;
    } while (token);
    expect(ids).toEqual([second.id, op.id]);

    const other = await tenantClient(t.app);
    expect((await other.call('GET', `/v1/operations/${op.id}`)).statusCode).toBe(404);
    expect((await other.call('POST', `/v1/operations/${op.id}/cancel`)).statusCode).toBe(404);
    expect((await other.call('GET', '/v1/operations')).json().operations).toEqual([]);

    // The reconciler's batches, two jobs each: one runs, then the cancel stops the operation.
    const owner = 'test:1';
    const taken = await takeOperation(t.db.pool, owner, 30_000);
    await runOperationBatch(t.db.pool, taken!.id, owner, { batchSize: 2, ttlMs: 30_000 });
    const asked = await c.call('POST', `/v1/operations/${taken!.id}/cancel`);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ state: 'running', cancelRequested: true });
    await runOperationBatch(t.db.pool, taken!.id, owner, { batchSize: 2, ttlMs: 30_000 });
    const after = (await c.call('GET', `/v1/operations/${taken!.id}`)).json();
    expect(after).toMatchObject({ state: 'cancelled', done: 2 });
    expect(after.finishedAt).toEqual(expect.any(String));
    // Only the first batch was changed; the rest of the tag and the other tag stay pending.
    expect(await pendingOf(c)).toBe(4);
    // Asking again is answered as before; a cancel of an operation that ended otherwise is a 409.
    const again = await c.call('POST', `/v1/operations/${taken!.id}/cancel`);
    expect([again.statusCode, again.json().state], again.body).toEqual([200, 'cancelled']);
    const redrive = await takeOperation(t.db.pool, owner, 30_000);
    expect(redrive!.id).toBe(second.id);
    await runOperationBatch(t.db.pool, second.id, owner, { batchSize: 2, ttlMs: 30_000 });
    expect((await c.call('GET', `/v1/operations/${second.id}`)).json()).toMatchObject({
      state: 'succeeded',
      done: 0,
    });
    const late = await c.call('POST', `/v1/operations/${second.id}/cancel`);
    expect(late.statusCode, late.body).toBe(409);
  });
});
