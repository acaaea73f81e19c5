import { openSecret, parseSecretsKeyring, verifyWebhookSignature } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { TEST_SECRETS_KEY } from '@dsched/testkit/secrets';
import { eventually, type ServiceName } from '@dsched/testkit/services';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The six services at the most verbose log level through a tenant's whole life: created, a task
// delivered (signed), read through job-api, a key rotated, a failed authentication. Not one log
// line of any of them holds an API key, a signing secret, the operator token or the secrets key.
// A tenant whose secret was stored in plaintext before migration 0046 is sealed by task-api at
// start and still gets signed calls.

const ADMIN_TOKEN = 'e2e-admin-token-for-the-log-test';
const { db, ks } = useTestStores(import.meta.url);
let target: RecordingTarget;
let legacy: Awaited<ReturnType<typeof createTenantWithKey>>;
let fleet: Fleet | undefined;

beforeAll(async () => {
  target = await startRecordingTarget();
  legacy = await createTenantWithKey(db.pool, 'before-0046');
  fleet = await startFleet({
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'trace',
    ...FAST_LOOPS,
  });
});

afterAll(async () => {
  await fleet?.stop();
  await target?.close();
});

const url = (name: ServiceName) => fleet!.service(name).url;

async function call(base: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const task = (name: string) => ({
  name,
  schedule: { type: 'once', at: new Date(Date.now() + 300).toISOString() },
  target: { url: `${target.url}/${name}`, body: { n: 1 } },
});

it('no log line holds an API key, a signing secret, the operator token or the secrets key', async () => {
  const created = await call(url('task-api'), '/v1/admin/tenants', ADMIN_TOKEN, { name: 'logs' });
  expect(created.status).toBe(201);
  const tenant = created.body as { id: string; apiKey: string; signingSecret: string };

  expect((await call(url('task-api'), '/v1/tasks', tenant.apiKey, task('fresh'))).status).toBe(201);
  expect((await call(url('task-api'), '/v1/tasks', legacy.apiKey, task('legacy'))).status).toBe(201);
  const calls = await target.waitForCalls(2, 30_000);
  for (const [path, secret] of [
    ['/fresh', tenant.signingSecret],
    ['/legacy', legacy.signingSecret],
  ] as const) {
    const c = calls.find((x) => x.url === path)!;
    const signed = verifyWebhookSignature(
      secret,
      String(c.headers['webhook-id']),
      Number(c.headers['webhook-timestamp']),
      c.body,
      String(c.headers['webhook-signature']),
    );
    expect(signed, path).toBe(true);
  }
  const jobId = String(calls[0]!.headers['idempotency-key']);
  const owner = calls[0]!.url === '/fresh' ? tenant : legacy;
  expect((await call(url('job-api'), `/v1/jobs/${jobId}`, owner.apiKey)).status).toBe(200);
  const rotated = await call(url('task-api'), `/v1/admin/tenants/${tenant.id}/keys`, ADMIN_TOKEN, {});
  expect(rotated.status).toBe(201);
  expect((await call(url('job-api'), '/v1/dlq', `${tenant.apiKey}x`)).status).toBe(401);
  expect((await call(url('task-api'), '/v1/admin/tenants', `${ADMIN_TOKEN}x`, { name: 'x' })).status).toBe(
    403,
  );

  // Both rows are sealed now, the one written in plaintext before 0046 by task-api's reseal.
  const ring = parseSecretsKeyring(TEST_SECRETS_KEY);
  await eventually(
    async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM tenants WHERE signing_secret_key_id IS NULL',
      );
      return Number(rows[0]!.n) === 0 ? true : undefined;
    },
    15_000,
    'the plaintext row resealed',
  );
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT LOWER(HEX(id)) AS id, signing_secret FROM tenants ORDER BY id',
  );
  const stored = new Map(rows.map((r) => [String(r.id), String(r.signing_secret)]));
  for (const t of [tenant, legacy]) {
    const row = stored.get(t.id.replaceAll('-', ''))!;
    expect(row).not.toContain(t.signingSecret.slice('whsec_'.length));
    expect(openSecret(ring, t.id, row)).toBe(t.signingSecret);
  }

  await fleet?.stop();
  const logs = fleet!.services.map((s) => ({ name: s.name, text: s.output() }));
  // The run did log: requests, claims and calls at trace level, from every service.
  for (const l of logs) expect(l.text.split('\n').length, l.name).toBeGreaterThan(3);
  const secrets = [
    tenant.apiKey,
    String(rotated.body.apiKey),
    legacy.apiKey,
    tenant.signingSecret,
    tenant.signingSecret.slice('whsec_'.length),
    legacy.signingSecret.slice('whsec_'.length),
    ADMIN_TOKEN,
    ...[...ring.byId.values()].map((k) => k.toString('base64')),
  ];
  for (const l of logs)
    for (const s of secrets) expect(l.text.includes(s), `${l.name} logged ${s.slice(0, 8)}…`).toBe(false);
});
