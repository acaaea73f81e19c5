import { openSecret } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import { testKeyring } from '@dsched/testkit/secrets';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ADMIN_TOKEN } from './test-app.ts';

const ADMIN = TEST_ADMIN_TOKEN;
let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url));
});
afterAll(async () => {
  await close();
});

async function newTenant(name = 'acme') {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/admin/tenants',
    headers: { authorization: `Bearer ${ADMIN}` },
    payload: { name },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; apiKey: string; signingSecret: string };
}

const task = (overrides: Record<string, unknown> = {}) => ({
  name: 'nightly',
  schedule: { type: 'cron', expression: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
  target: { url: 'https://example.test/hook' },
  ...overrides,
});

describe('tenants', () => {
  it('creates a tenant whose key is stored hashed and works once shown', async () => {
    const t = await newTenant();
    expect(t.apiKey).toMatch(/^dsk_/);
    expect(t.signingSecret).toMatch(/^whsec_/);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT key_hash FROM tenant_api_keys');
    expect(rows.some((r) => (r.key_hash as Buffer).toString('utf8').includes(t.apiKey))).toBe(false);
    // the signing secret is stored sealed with the current key, and opens to the one shown
    const [tenants] = await db.pool.query<RowDataPacket[]>(
      'SELECT signing_secret, signing_secret_key_id FROM tenants WHERE id = UNHEX(REPLACE(?, "-", ""))',
      [t.id],
    );
    const stored = String(tenants[0]!.signing_secret);
    expect(stored).not.toContain(t.signingSecret.slice('whsec_'.length));
    expect(tenants[0]!.signing_secret_key_id).toBe(testKeyring().current.id);
    expect(openSecret(testKeyring(), t.id, stored)).toBe(t.signingSecret);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${t.apiKey}` },
      payload: task(),
    });
    expect(res.statusCode).toBe(201);
  });

  it('keeps a weight per tenant: 1 by default, set on create and by PATCH, shown on GET', async () => {
    const admin = { authorization: `Bearer ${ADMIN}` };
    const plain = await newTenant('plain');
    const get = (id: string) => app.inject({ method: 'GET', url: `/v1/admin/tenants/${id}`, headers: admin });
    expect((await get(plain.id)).json()).toMatchObject({ weight: 1 });
    const heavy = await app.inject({
      method: 'POST',
      url: '/v1/admin/tenants',
      headers: admin,
      payload: { name: 'heavy', weight: 5 },
    });
    expect(heavy.json()).toMatchObject({ weight: 5 });
    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/admin/tenants/${plain.id}`,
      headers: admin,
      payload: { weight: 0.001 },
    });
    expect(patched.statusCode).toBe(200);
    expect((await get(plain.id)).json()).toMatchObject({ weight: 0.001 });
    const [stored] = await db.pool.query<RowDataPacket[]>(
      'SELECT weight FROM tenants WHERE id = UNHEX(REPLACE(?, "-", ""))',
      [plain.id],
    );
    expect(Number(stored[0]!.weight)).toBe(0.001);
    for (const weight of [0, 0.0001, 1000.5, -1, 'heavy', null]) {
      const bad = await app.inject({
        method: 'PATCH',
        url: `/v1/admin/tenants/${plain.id}`,
        headers: admin,
        payload: { weight },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        error: { code: 'invalid_argument', details: [{ field: 'weight' }] },
      });
    }
    expect((await get(plain.id)).json()).toMatchObject({ weight: 0.001 });
  });

  it('takes a flow control key on a task, shows it, and refuses one without a limit by field', async () => {
    const t = await newTenant('flows');
    const post = (flowControl: unknown) =>
      app.inject({
        method: 'POST',
        url: '/v1/tasks',
        headers: { authorization: `Bearer ${t.apiKey}` },
        payload: task({ flowControl }),
      });
    const ok = await post({ key: 'endpoint', parallelism: 3, ratePerSecond: 2.5 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ flowControl: { key: 'endpoint', parallelism: 3, ratePerSecond: 2.5 } });
    for (const [bad, field] of [
      [{ key: 'endpoint' }, 'flowControl.parallelism'],
      [{ key: 'endpoint', parallelism: 0 }, 'flowControl.parallelism'],
      [{ key: '', parallelism: 1 }, 'flowControl.key'],
      [{ key: 'endpoint', ratePerSecond: -1 }, 'flowControl.ratePerSecond'],
    ] as const) {
      const res = await post(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'invalid_argument', details: [{ field }] } });
    }
  });

  it('refuses the admin routes without the operator token', async () => {
    const none = await app.inject({ method: 'POST', url: '/v1/admin/tenants', payload: { name: 'x' } });
    expect(none.statusCode).toBe(401);
    const wrong = await app.inject({
      method: 'POST',
      url: '/v1/admin/tenants',
      headers: { authorization: 'Bearer nope' },
      payload: { name: 'x' },
    });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: { code: 'permission_denied' } });
  });

  it('rotates a key: the new one works and the old one expires after the grace period (0 here)', async () => {
    const t = await newTenant();
    const rot = await app.inject({
      method: 'POST',
      url: `/v1/admin/tenants/${t.id}/keys`,
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(rot.statusCode).toBe(201);
    const { apiKey } = rot.json() as { apiKey: string };
    const ok = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: task(),
    });
    expect(ok.statusCode).toBe(201);
    const old = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${t.apiKey}` },
      payload: task(),
    });
    expect(old.statusCode).toBe(401);
  });
});

describe('tasks', () => {
  it('computes nextFireAt in the task’s zone and returns the task to its owner only', async () => {
    const a = await newTenant('a');
    const b = await newTenant('b');
    const created = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${a.apiKey}` },
      payload: task(),
    });
    const body = created.json() as { id: string; nextFireAt: string; state: string; version: number };
    expect(body.state).toBe('active');
    expect(body.version).toBe(1);
    // 09:00 in Berlin is 07:00 or 08:00 UTC.
    expect(new Date(body.nextFireAt).getUTCHours()).toBeGreaterThanOrEqual(7);
    expect(new Date(body.nextFireAt).getUTCHours()).toBeLessThanOrEqual(8);
    const own = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${body.id}`,
      headers: { authorization: `Bearer ${a.apiKey}` },
    });
    expect(own.statusCode).toBe(200);
    const other = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${body.id}`,
      headers: { authorization: `Bearer ${b.apiKey}` },
    });
    const missing = await app.inject({
      method: 'GET',
      url: '/v1/tasks/01900000-0000-7000-8000-000000000000',
      headers: { authorization: `Bearer ${b.apiKey}` },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it.each([
    [{ schedule: { type: 'cron', expression: 'not a cron', timezone: 'UTC' } }, 'schedule.expression'],
    [{ schedule: { type: 'cron', expression: '0 0 30 2 *', timezone: 'UTC' } }, 'schedule.expression'],
    [{ schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'Mars/Olympus' } }, 'schedule.timezone'],
    [{ target: { url: 'ftp://x' } }, 'target.url'],
    [{ priority: 'urgent' }, 'priority'],
    [{ retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
  ])('answers 400 naming the field for %j and stores nothing', async (override, field) => {
    const t = await newTenant();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${t.apiKey}` },
      payload: task(override),
    });
    expect(res.statusCode).toBe(400);
    const err = res.json() as { error: { code: string; details: { field: string }[] } };
    expect(err.error.code).toBe('invalid_argument');
    expect(err.error.details.map((d) => d.field)).toContain(field);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
      [t.id],
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('answers 400 for malformed JSON and 401 without a key', async () => {
    const t = await newTenant();
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'invalid_argument' } });
    const anon = await app.inject({ method: 'POST', url: '/v1/tasks', payload: task() });
    expect(anon.statusCode).toBe(401);
  });
});
